"""Dev-only embedded stack and the caredesk CLI (never deployed)."""
