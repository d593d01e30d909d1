"""Hardware ports: each device has a `pi` backend and a `sim` backend.

Devices are built from config by `open_hardware`; nothing here touches game
state. Real-hardware libraries (picamera2, smbus2, lgpio) are imported only
inside the `pi` backends so the package imports on any desktop.
"""
