-- Automatic calibration (issue 14, item 2): a stored floor is either measured in the gap between the
-- in-scope and out-of-scope probe clusters ('calibrated') or the safe default chosen because the
-- clusters overlapped or there were too few probes ('default', with the reason). A default floor may
-- lack the cluster edges. `method` says where the probes came from: 'auto' (derived from the index +
-- the shipped generic out-of-scope set) or 'probes' (a hand-written file, `caredesk calibrate --probes`).
ALTER TABLE calibration
    ADD COLUMN status text NOT NULL DEFAULT 'calibrated' CHECK (status IN ('calibrated', 'default')),
    ADD COLUMN reason text,
    ADD COLUMN method text NOT NULL DEFAULT 'probes' CHECK (method IN ('auto', 'probes')),
    ALTER COLUMN in_scope_low DROP NOT NULL,
    ALTER COLUMN out_of_scope_high DROP NOT NULL,
    ADD CONSTRAINT calibration_default_has_reason CHECK (status = 'calibrated' OR reason IS NOT NULL);

-- Retrieve looks up the floor for the current KB version and model on every request.
CREATE INDEX calibration_version_idx ON calibration (kb_version, model_version, calibrated_at DESC, id DESC);
