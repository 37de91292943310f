"""Unit tests of the pure audit engine (package so module names don't clash with other suites)."""
