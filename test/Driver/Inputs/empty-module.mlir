module {}
