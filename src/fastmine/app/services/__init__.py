"""What the app asks of the device: where its files go, vibration, sound."""
