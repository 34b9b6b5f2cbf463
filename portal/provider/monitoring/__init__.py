"""Monitoring: the roll-up job of sensor samples and the SVG charts drawn from them."""
