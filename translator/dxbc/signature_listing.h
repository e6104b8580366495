#pragma once
// The comment header of an fxc listing: resource bindings and signature tables.

#include "translator/dxbc/container.h"

#include <string>

namespace kiln::dxbc {

// Appends "// Resource Bindings:", "// Input signature:", ... tables for the chunks present.
// Damaged chunks are reported in a comment line instead of a table.
void append_listing_header(const Container& container, std::string& out);

} // namespace kiln::dxbc
