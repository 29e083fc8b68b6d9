"""Registers the session suite under the name its sibling imports it by (`tests.memory.test_session`)."""

import sys

import test_session

sys.modules["tests.memory.test_session"] = test_session
