"""The background service: watch every tree, audit weekly, alert, write reports. Never fixes."""
