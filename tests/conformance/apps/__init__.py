"""The real applications the conformance suite runs (runner), and the capture tool (capture)."""
