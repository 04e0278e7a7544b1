// The declaration in include/fuzzer_driver.h is all this module provides; SwiftPM needs one
// source file to make it a target.
#include "fuzzer_driver.h"
