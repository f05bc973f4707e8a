// Everything is in include/FutexShim.h; SwiftPM needs one source file for a C target.
#include "FutexShim.h"
