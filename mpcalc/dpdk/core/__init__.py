"""The machinery every DPDK object and application shares: the records (:mod:`.records`), the declarations
(:mod:`.declare`) and their registry (:mod:`.registry`), the build and machine (:mod:`.platform`,
:mod:`.facts`, :mod:`.machine`, each release's struct sizes in :mod:`.struct_sizes`), the heap and memzone
maths (:mod:`.heap`), units, C integer helpers, flags, errors and limits.  Nothing here imports an object, a
driver or an application (tests/test_layers.py).

Pure: stdlib only.
"""
