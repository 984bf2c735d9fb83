"""The constraint queries the rules call: combat assignments, retreats, stacking, loss
apportionment, each as a Z3 encoding beside the plain-Python oracle it is held to."""
