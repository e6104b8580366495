// Placeholder translation unit until the cache lands (cache issue).
namespace kiln {
int cache_placeholder() { return 0; }
} // namespace kiln
