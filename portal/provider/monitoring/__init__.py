"""Monitoring: the sensors list, the roll-up job of sensor samples and the SVG charts drawn from
them. Like every domain it imports only platform and itself."""
