"""Running in parallel: the xdist scheduler (longest tasks first, work stealing, staggered
worker start), shards across hosts, CPU pinning of each worker with its device, and warm start
(workers and devices forked from one process that imported everything once)."""
