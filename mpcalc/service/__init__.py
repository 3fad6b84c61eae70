"""The application layer: requests to reports and exit codes (mpcalc.service.request), and the front ends'
evaluation: plan files, batch lines, sweeps, diffs, --fit, --explain, the CI gates.  No click, no rich."""
