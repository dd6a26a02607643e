-- Confidence floors, each measured on probes for one knowledge-base version and embedding model.
CREATE TABLE IF NOT EXISTS calibration (
    id                bigserial PRIMARY KEY,
    kb_version        text        NOT NULL,
    model_version     text        NOT NULL,
    floor             real        NOT NULL CHECK (floor > -1 AND floor < 1),
    in_scope_low      real        NOT NULL,
    out_of_scope_high real        NOT NULL,
    probes            integer     NOT NULL,
    calibrated_at     timestamptz NOT NULL DEFAULT now()
);
