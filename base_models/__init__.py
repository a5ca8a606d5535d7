"""The base models the project trains: the embedded SmolLM2, the tiny test model, a folder or a Hub id (ids, loading).

Below training and publishing, so both use one definition of the models and their Hub ids.
"""
