-- Every calibrated threshold is stored with the tool that measured it (issue 18, caredesk.thresholds):
-- for a retrieval floor 'CalibrateFunction', 'RetrieveFunction (inline)' or 'caredesk calibrate'.
-- NULL: a floor stored before this column existed.
ALTER TABLE calibration ADD COLUMN measured_by text;
