"""CareDesk shared package: the logic behind every Lambda handler, testable without AWS."""
