"""Publish the project's artifacts to the Hugging Face Hub, or to a local git hub (``HUB=local``) that olah serves."""
