"""ethdev ports and the poll-mode drivers that make their queues (:mod:`.ethdev`: ``--vdev`` ports, probe,
configure, the queue set-ups).  The applications (:mod:`mpcalc.dpdk.apps`) open ports through here.

Pure: stdlib only.
"""
