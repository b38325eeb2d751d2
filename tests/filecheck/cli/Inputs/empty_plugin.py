"""A plugin that registers nothing."""

VALUE = 1
