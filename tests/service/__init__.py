"""Tests of the HTTP service (issue 15)."""
