// Placeholder so the module builds; replaced as the module grows.
