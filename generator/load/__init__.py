"""Loading: catalog files -> the frozen model (generator/model.py), every value located.

catalog.py reads catalog.yaml, the size matrices and the series; preferences.py and
traits.py the preference half; gpu.py the GPU parameters; overlays.py applies a vendor's
overlays to the loaded model. Nothing here expands, renders or validates objects.
"""
