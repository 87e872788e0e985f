# _frontier has no Python-level names: its functions are cimported by _prob and _count.
