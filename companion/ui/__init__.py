"""What the referee sees and hears: OLED screens and buzzer tunes."""
