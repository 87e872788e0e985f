"""fastmine's benchmark suite: ``python -m bench --help``.

fastmine is timed side by side with its peers (plain Python, NumPy/SciPy,
ms-toollib) on the same inputs, in one worker process that is restarted when a
peer crashes; results go to ``bench/results/<name>.{json,md}`` with PNG plots.
See ``docs/benchmarks.md`` for the headline numbers.
"""
