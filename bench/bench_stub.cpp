// Placeholder translation unit until the corpus benchmark lands (bench issue).
namespace kiln {
int bench_placeholder() { return 0; }
} // namespace kiln
