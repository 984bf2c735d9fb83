"""The toy's variants (options and presets). It has no data files: `data_dir` is this folder."""
