"""Write the curriculum and arithmetic datasets as Hub-layout folders (parquet + card); ``publishing`` pushes them."""

from publishing.dataset_folders.folders import write_arithmetic_folder, write_curriculum_folder

__all__ = ["write_arithmetic_folder", "write_curriculum_folder"]
