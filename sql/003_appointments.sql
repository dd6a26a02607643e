-- The appointments table for the status-lookup tool (issue 7). Schema only: the 45 synthetic demo
-- appointments (seed 4242) are loaded by `caredesk seed-demo` (make demo, the tests), never by a
-- migration. Databases that applied this file while it still inserted them keep their rows
-- (caredesk.store.migrations.SUPERSEDED_SHA256).

CREATE TABLE appointments (
    appointment_id      TEXT PRIMARY KEY CHECK (appointment_id ~ '^APT-[0-9]{4}$'),
    patient_id          TEXT NOT NULL CHECK (patient_id ~ '^PAT-[0-9]{3}$'),
    specialty           TEXT NOT NULL,
    doctor              TEXT NOT NULL,
    status              TEXT NOT NULL
                        CHECK (status IN ('Scheduled', 'Completed', 'Cancelled', 'No-Show', 'Rescheduled')),
    scheduled_date      DATE NOT NULL,
    scheduled_time      TIME NOT NULL,
    fee_inr             INTEGER NOT NULL CHECK (fee_inr > 0 AND fee_inr % 50 = 0),
    follow_up_required  BOOLEAN NOT NULL,
    days_since_created  INTEGER NOT NULL CHECK (days_since_created BETWEEN 0 AND 30)
);

CREATE INDEX appointments_patient ON appointments (patient_id);
