"""Running other benchmarks' task formats unchanged."""
