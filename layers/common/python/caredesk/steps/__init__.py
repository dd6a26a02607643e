"""The four query steps' logic; each handler calls one of these with its clients."""
