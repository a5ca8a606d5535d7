"""Publish the curriculum and arithmetic datasets: Hub-layout folders (parquet + card) and an optional push."""

from dataset_builders.publish.folders import write_arithmetic_folder, write_curriculum_folder
from dataset_builders.publish.hub import HubError, push_folder

__all__ = ["HubError", "push_folder", "write_arithmetic_folder", "write_curriculum_folder"]
