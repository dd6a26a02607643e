"""Fixed replies for every non-answer branch of the Guard step.

Written once and reviewed, never generated: a model's friendly sentence on these branches becomes a
promise nobody keeps. They name no record, appointment or person, so nothing in them can be stored
in memory and resolved later. The medical disclaimer is a separate field, added by the pipeline.
"""

from __future__ import annotations

CRISIS_REPLY = (
    "I'm really sorry you're going through this. You deserve support from a person right now, and "
    "this assistant cannot give it. Please reach out now: Tele-MANAS, India's free 24/7 mental health "
    "helpline, is at 14416 (or 1-800-891-4416), any time of day or night. If you are in immediate "
    "danger or might act on these thoughts, call the emergency number 112 or go to the nearest "
    "emergency department. If you can, tell someone you trust how you are feeling and stay with them."
)

EMERGENCY_REPLY = (
    "This sounds like it may be a medical emergency. Call 112 now for an ambulance, or go to the "
    "nearest emergency department. Do not wait for a reply here and do not drive yourself if you feel "
    "unwell. This assistant cannot assess symptoms."
)

HANDOVER_REPLY = (
    "This is a question for a clinician, not for this assistant: decisions about your own medication "
    "or new or worsening symptoms need someone who knows your history. I've passed your message to our "
    "care team, and a nurse or doctor will contact you. Please keep taking your medicines as prescribed "
    "until you have spoken to them. If your symptoms get worse or feel severe, call 112 or go to the "
    "nearest emergency department."
)

ABUSE_REPLY = (
    "I'm here to help with questions about our clinics, such as appointments, fees, refills and opening "
    "hours, but I can't continue with messages that contain abusive language. If something has gone "
    "wrong, please tell me what you need and I'll do my best to help."
)

BLOCKED_INJECTION_REPLY = (
    "I can't act on that request. I can only answer questions about our clinics' services and policies "
    "from the clinic's own documents. Please ask your question in your own words."
)

OVER_BUDGET_REPLY = (
    "Your message is too long for me to process. Please send a shorter question (a few sentences) and "
    "leave out any documents or long pasted text."
)
