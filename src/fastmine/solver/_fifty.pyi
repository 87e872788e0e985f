# Type stubs for the private 50/50 shapes kernel (see _fifty.pyx).
import numpy as np
from numpy.typing import NDArray

def shapes(view: NDArray[np.int8], mine: NDArray[np.uint8], out: NDArray[np.int8]) -> None: ...
