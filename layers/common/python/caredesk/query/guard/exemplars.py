"""Curated exemplars for the semantic safety gate.

SAFETY_EXEMPLARS (family, text): written as patients write, first person, indirect, without the
trigger phrases the rule gate already catches, so the gate adds coverage for paraphrases.
BENIGN_ANCHORS: ordinary clinic questions on the same topics (medicines, refills, emergencies,
injections). The gate scores a message by how much closer it is to the nearest safety exemplar than
to the nearest anchor: raw similarity alone cannot separate "can someone pick up my medicines?" from
medication-decision messages (measured on the dev split: no raw threshold met the goals).
Neither list is copied from the red-team sets (a test checks). Changing either list changes the
score distributions: re-run the calibration afterwards.
"""

from __future__ import annotations

SAFETY_EXEMPLARS: tuple[tuple[str, str], ...] = (
    # crisis: suicidal thoughts and self-harm, said indirectly
    ("crisis", "everyone would be happier if I just disappeared for good"),
    ("crisis", "my family would be better off without me around"),
    ("crisis", "I don't see any reason to keep going anymore"),
    ("crisis", "I have been thinking about ending things"),
    ("crisis", "I can't do this anymore, I just want it all to stop forever"),
    ("crisis", "I have been saving up my pills so I can take them all at once"),
    ("crisis", "nobody would even notice if I was gone"),
    ("crisis", "I feel like a burden and the world would be better without me"),
    ("crisis", "I wrote goodbye letters to my family last night"),
    ("crisis", "I keep thinking about not waking up tomorrow"),
    ("crisis", "I have been cutting my arms again to cope"),
    ("crisis", "I feel hopeless and trapped and I want my life to be over"),
    ("crisis", "I am going to jump off the bridge tonight"),
    ("crisis", "what is the most painless way to go to sleep and never wake up"),
    ("crisis", "there is no way out for me except to die"),
    ("crisis", "I've given away my things because I won't need them soon"),
    ("crisis", "there's no use planning next month because I won't be here for it"),
    ("crisis", "I've made up my mind and soon I'll be gone for good"),
    # emergency: happening now, needs the emergency number
    ("emergency", "there is a crushing pressure in my chest and it's spreading to my left arm"),
    ("emergency", "I'm gasping and my lips are turning blue"),
    ("emergency", "my father just collapsed on the floor and isn't responding"),
    ("emergency", "my mother's face suddenly went lopsided and she can't lift her arm"),
    ("emergency", "my child swallowed a bottle of tablets a few minutes ago"),
    ("emergency", "I was stung by a bee and now my throat feels tight and I'm wheezing"),
    ("emergency", "he is having convulsions and won't stop shaking"),
    ("emergency", "there's blood everywhere from the cut and it keeps pouring out"),
    ("emergency", "my heart is pounding and I feel like I'm about to black out right now"),
    ("emergency", "I suddenly can't see out of one eye and have the worst headache of my life"),
    # sensitive: the patient's own medication decisions and acute symptoms
    ("sensitive", "is it alright if I quit my blood pressure tablets since I feel fine now"),
    ("sensitive", "I forgot this morning's tablet, should I take two tonight"),
    ("sensitive", "can I take half of my prescribed pill to make it last longer"),
    ("sensitive", "the new medicine makes me feel awful, can I just not take it"),
    ("sensitive", "how much paracetamol is too much for me in a day"),
    ("sensitive", "can I have a few drinks while I'm on antibiotics"),
    ("sensitive", "my sugar readings are very high, should I inject more insulin"),
    ("sensitive", "I've had a fever and chills for three days and it's not getting better"),
    ("sensitive", "my stitches are red, hot and oozing"),
    ("sensitive", "I've been throwing up all night and can't keep water down"),
    ("sensitive", "since starting the new tablets my ankles have swollen up badly"),
    ("sensitive", "my heart has been racing ever since I started the diet"),
    ("sensitive", "can I swap my prescribed medicine for a cheaper one from the chemist myself"),
    ("sensitive", "I ran out of my tablets, is it fine to go without them for a week"),
)

BENIGN_ANCHORS: tuple[str, ...] = (
    "how do I order a repeat prescription",
    "can a family member collect my medicines from the pharmacy",
    "how much does an injection or vaccination cost at the clinic",
    "do I have to see the doctor before my prescription is renewed",
    "which medicines does the clinic pharmacy keep in stock",
    "what happens if my medicine delivery gets lost",
    "can I get a copy of my prescription",
    "what is the clinic's policy on prescribing medicines online",
    "which number should I call in an emergency",
    "does the clinic have emergency equipment on site",
    "can I book a home visit for a relative",
    "what should I do before a fasting blood test",
    "do you offer counselling or mental health appointments",
    "how do I stop getting reminder messages",
    "how do I delete my account and my data",
    "is there a programme for people living with diabetes",
    "how much is a consultation with a specialist",
    "when will my test results be ready",
    "how do I cancel or reschedule my appointment",
    "what are the opening hours of the clinic",
    "can I get my records sent to another hospital",
    "do you accept health insurance for outpatient visits",
    "how do video consultations work",
    "is the clinic accessible for wheelchair users",
    "can someone accompany me during a procedure",
    "what is the fee for a medical certificate",
    "do you treat minor injuries or should I go to a hospital",
    "how do I complain about the waiting time",
    "can I pay for my medicines by card or UPI",
    "how long does it take to get a refill ready",
    # staff procedure questions: naming an emergency code is asking about a drill, not having one
    "what does the emergency code announced over the speakers mean",
    "what is the staff procedure when the alarm is raised at reception",
    "where is the defibrillator kept and who is trained to use it",
    "how does the front office call the rapid response team",
    # everyday clinic logistics, one per topic of a typical clinic's documents, worded as patients ask
    "what should I bring with me to my first appointment",
    "what happens if I arrive late for my appointment slot",
    "how long does the clinic keep my messages and personal data",
    "how many days until my blood test report is ready",
    "can the helpline speed up my repeat medicines",
    "do you have a dentist or an eye doctor at the clinic",
    "how do I reset my patient portal password",
    "when is my child's next vaccination due",
    "can I get a second opinion on my diagnosis",
    # requests that are not about the clinic at all: a general assistant's small talk and chores
    "what is the weather forecast for the city",
    "translate this sentence into another language",
    "write me a poem or a short story",
    "tell me a joke",
    "who won the match yesterday",
    "help me with my homework",
)
