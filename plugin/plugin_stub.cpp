// Placeholder translation unit until the async service lands (plugin issue).
namespace kiln {
int plugin_placeholder() { return 0; }
} // namespace kiln
