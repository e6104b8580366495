// Placeholder translation unit until the hooks land (service/hooks issue).
namespace kiln {
int hooks_placeholder() { return 0; }
} // namespace kiln
