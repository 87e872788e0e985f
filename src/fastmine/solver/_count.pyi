# _count has no Python-level names: its functions are cimported by _prob.
