"""Task files are loaded as submodules of this package, so `from ..bench_task import Task` and
`from .sibling import X` resolve; the plugin adds each task file's folder to `__path__`."""
