// Convenience umbrella header for benchmark authors.
#pragma once
#include "aisp/benchmark.hpp"
#include "aisp/check.hpp"
