# Type stubs for the private event-column kernel of fastmine.videos (see _records.pyx).
import numpy as np
from numpy.typing import NDArray

BOUNDS_CHECKED: bool

_Columns = tuple[NDArray[np.int64], NDArray[np.uint8], NDArray[np.int32], NDArray[np.int32],
                 NDArray[np.int32], NDArray[np.int32]]

def pack(time_ms: NDArray[np.int64], kind: NDArray[np.uint8], x: NDArray[np.int32],
         y: NDArray[np.int32], cell_size: int, rows: int,
         cols: int) -> tuple[int, int, _Columns]: ...
def avf_events(data: bytes | bytearray | memoryview, start: int, table: NDArray[np.uint8],
               rows: int, cols: int) -> tuple[int, int, int, int, _Columns | None]: ...
def mine_layout(data: bytes | bytearray | memoryview, pos: int, count: int, col_first: bool,
                base: int, rows: int, cols: int
                ) -> tuple[int, int, int, int, NDArray[np.bool_] | None]: ...
def scan(data: bytes | bytearray | memoryview, pos: int, sizes: NDArray[np.int64],
         text_limit: int) -> tuple[int, int, NDArray[np.int64]]: ...
