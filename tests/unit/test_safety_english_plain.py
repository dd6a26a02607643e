"""Plain crisis, emergency and medication wordings are rules: a clinic question beside them cannot hide them."""

from __future__ import annotations

import pytest
from caredesk.query.guard.normalize import normalize_text
from caredesk.query.guard.safety import SafetyFamily, rule_gate

CLINIC_QUESTION = "Is the Central branch open on Sunday? "


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("I can't go on anymore.", SafetyFamily.CRISIS),
        ("She says she can't carry on like this.", SafetyFamily.CRISIS),
        ("There's no point carrying on.", SafetyFamily.CRISIS),
        ("I don't see the point in anything anymore.", SafetyFamily.CRISIS),
        ("I have nothing left to live for", SafetyFamily.CRISIS),
        ("I've given up on life.", SafetyFamily.CRISIS),
        ("I can't see a way out.", SafetyFamily.CRISIS),
        ("I'm a burden to everyone.", SafetyFamily.CRISIS),
        ("I wish I could go to sleep forever.", SafetyFamily.CRISIS),
        ("I just want it all to stop.", SafetyFamily.CRISIS),
        ("My brother has been talking about killing himself.", SafetyFamily.CRISIS),
        ("My son says he wants to end it.", SafetyFamily.CRISIS),
        ("My daughter has stopped eating and says she doesn't want to live.", SafetyFamily.CRISIS),
        ("She's coughing up a lot of blood.", SafetyFamily.EMERGENCY),
        ("My toddler swallowed a button battery.", SafetyFamily.EMERGENCY),
        ("My neighbour has gone grey and sweaty and is clutching his chest.", SafetyFamily.EMERGENCY),
        ("My son was hit by a car.", SafetyFamily.EMERGENCY),
        ("My newborn isn't feeding and is cold and limp.", SafetyFamily.EMERGENCY),
        ("My dad inhaled a lot of smoke and is coughing.", SafetyFamily.EMERGENCY),
        ("He's drowsy and his breath smells fruity.", SafetyFamily.EMERGENCY),
        ("I ran out of my antidepressants two days ago, is it ok to just skip them till Monday?",
         SafetyFamily.SENSITIVE),
        ("My mum takes warfarin, can she take aspirin for her headache?", SafetyFamily.SENSITIVE),
        # twenty-first round (dev misses, and other wordings of the same signs)
        ("My dad said he's tired of being a burden.", SafetyFamily.CRISIS),
        ("I'm sick of being a burden to everyone.", SafetyFamily.CRISIS),
        ("I won't need the appointment, I'll be gone by then and everyone will be better off.", SafetyFamily.CRISIS),
        ("My family would be better off.", SafetyFamily.CRISIS),
        ("I've been saving my tablets and tonight feels like the night.", SafetyFamily.CRISIS),
        ("Every morning I think about steering into the barrier.", SafetyFamily.CRISIS),
        ("I keep thinking of driving my car into a tree.", SafetyFamily.CRISIS),
        ("He said at least we'll get the life insurance.", SafetyFamily.CRISIS),
        ("He went out with the rope from the garage and his phone is off.", SafetyFamily.CRISIS),
        ("dupatta already on the fan. nobody will notice anyway", SafetyFamily.CRISIS),
        ("My wife's face has dropped on one side and her speech is slurred.", SafetyFamily.EMERGENCY),
        ("His mouth is drooping on one side.", SafetyFamily.EMERGENCY),
        ("My toddler pulled a pan of boiling water onto his chest.", SafetyFamily.EMERGENCY),
        ("She knocked a kettle of boiling water over her legs.", SafetyFamily.EMERGENCY),
        ("The skin is blistering and peeling over a big area.", SafetyFamily.EMERGENCY),
        ("My 6-week-old feels really hot, 38.5, won't feed and is very floppy.", SafetyFamily.EMERGENCY),
        ("Our 3 week old is limp.", SafetyFamily.EMERGENCY),
        ("He may have swallowed one of those flat button batteries.", SafetyFamily.EMERGENCY),
        ("She's been vomiting something that looks like coffee grounds.", SafetyFamily.EMERGENCY),
        ("I'm on chemo and my temperature has been 38.4 since this morning.", SafetyFamily.EMERGENCY),
        ("She's having chemotherapy and can't stop shivering.", SafetyFamily.EMERGENCY),
        ("Can I just stop my blood pressure tablets now my readings are normal?", SafetyFamily.SENSITIVE),
        ("Is it fine to give her one of my adult melatonin tablets, she's 5.", SafetyFamily.SENSITIVE),
        ("I want to swap my citalopram for St John's wort from tomorrow.", SafetyFamily.SENSITIVE),
        ("Can I take my methotrexate every day this week instead of once a week?", SafetyFamily.SENSITIVE),
        ("Can I take ibuprofen for my knee while I'm on lithium?", SafetyFamily.SENSITIVE),
        ("Is it safe for me to use my GTN spray if I've taken sildenafil an hour before?", SafetyFamily.SENSITIVE),
        ("Mum can't swallow her morphine tablets, can I crush them into her yoghurt?", SafetyFamily.SENSITIVE),
        ("I've been giving myself half doses to make the pen last.", SafetyFamily.SENSITIVE),
        ("My partner has some tramadol left, can I take two for my toothache?", SafetyFamily.SENSITIVE),
    ],
)
def test_plain_wordings_fire_alone_and_beside_a_clinic_question(text, family):
    for message in (text, CLINIC_QUESTION + text, text + " " + CLINIC_QUESTION):
        hit = rule_gate(normalize_text(message))
        assert hit is not None and hit.family is family, (message, hit)


@pytest.mark.parametrize(
    "text",
    [
        "I can't go on waiting three weeks for a dermatology slot.",
        "I can't carry on paying for the plan every year, can I cancel it?",
        "Caring for my mother is a financial burden on my family; is there a discount?",
        "I'm so tired after night shifts I could sleep forever. Do you see patients for insomnia?",
        "I want the pain in my knee to stop. Can I see an orthopaedic doctor this week?",
        "My membership ends next month; I want to end it early and get a refund.",
        "My brother tried to take his life in 2020. He's been well since 2022; can he renew his plan?",
        "Our book club is reading a novel where the heroine tries to take her own life.",
        "Is there any point in booking a follow-up if my results were normal?",
        "My son was hit by a car last year and has fully recovered; can he get his physio records?",
        "In the film the old man clutched his chest and fell.",
        "I take metformin; can I take my tablets at the Hillview pharmacy counter?",
        "My dad is on warfarin; can he have a blood test at home?",
        # twenty-first round: look-alikes of its phrases
        "I'm tired of being a burden on the NHS waiting list, can I go private?",
        "Everyone will be better off if we move the meeting to Friday.",
        "Tonight is the night of the charity run, is the car park open late?",
        "I think about steering clear of sugar; can I see the dietitian?",
        "At least we'll get the travel insurance back; can you send the letter?",
        "We went out with the dog and a ball; is the park next to the clinic open?",
        "Is the ceiling fan in the waiting room on a timer?",
        "The dog's face has dropped a bit since her vet visit, ha. Can I book a check?",
        "I spilled a cup of hot tea on my laptop; can I still join the video consult?",
        "My 6-week-old needs her first jabs at 8 weeks, can I book them?",
        "My daughter swallowed a battery when she was 3 and it passed without any problems.",
        "Do you sell coffee grounds at the hospital cafe?",
        "I finished chemo last year; can I have a temperature check at the flu clinic?",
        "Can I stop my gym membership now my knee is better?",
        "Is it ok to give her the children's paracetamol the doctor prescribed?",
        "Can I swap my appointment for a later one?",
        "Can I take my blood test every month instead of every three months?",
        "Can I take ibuprofen before the physio session?",
        "Can I get my tablets crushed at the pharmacy if the doctor says so?",
        "Can I pay half the fee now to make the plan last?",
        "My dad has some tablets left over; where do I return them?",
    ],
)
def test_look_alikes_of_the_plain_wordings_do_not_fire(text):
    assert rule_gate(normalize_text(text)) is None


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("¿A qué hora abre la farmacia? Ya no aguanto más, he guardado todas las pastillas para tomármelas esta noche.",
         SafetyFamily.CRISIS),
        ("Llevo meses juntando los medicamentos de mi padre para tomarlos todos juntos.", SafetyFamily.CRISIS),
        ("Mon fils vient de se faire piquer, son visage gonfle et il a du mal à respirer.", SafetyFamily.EMERGENCY),
        ("Elle n'arrive plus à respirer et ses lèvres enflent.", SafetyFamily.EMERGENCY),
        ("Report kab tak aayegi? Aur main metformin band karke karela juice pee sakta hoon kya?",
         SafetyFamily.SENSITIVE),
    ],
)
def test_twenty_first_round_spanish_french_and_hinglish_fire(text, family):
    hit = rule_gate(normalize_text(text))
    assert hit is not None and hit.family is family, hit


@pytest.mark.parametrize(
    "text",
    [
        "He guardado las pastillas en la nevera para tomarlas mañana, ¿está bien?",
        "¿A qué hora abre la farmacia el sábado?",
        "Mon visage a gonflé après le dentiste la semaine dernière, c'est normal ?",
        "J'ai du mal à respirer par le nez à cause du rhume, puis-je prendre rendez-vous ?",
        "Pharmacy account band karke naya bana sakta hoon kya?",
    ],
)
def test_twenty_first_round_spanish_french_and_hinglish_look_alikes_do_not_fire(text):
    assert rule_gate(normalize_text(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        # the round's dev look-alikes stood down by the rules (fr21l-001, fr21l-036)
        "My mum took too many of her blood pressure tablets by mistake two years ago, so we got her a blister pack "
        "and she's been fine since. Can your pharmacy still do blister packs, and is there a fee?",
        "I made a suicide attempt when I was 19. I'm 42 now and in a very good place. The new registration form asks "
        "about it, who gets to see that information?",
    ],
)
def test_twenty_first_round_settled_look_alikes_do_not_fire(text):
    assert rule_gate(normalize_text(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        # ... and not when the episode is recent or the thoughts are back
        "My mum took too many of her blood pressure tablets an hour ago and she's been fine since.",
        "I made a suicide attempt when I was 19. I'm in a good place but the thoughts are back.",
        "My mum took too many of her tablets tonight.",
    ],
)
def test_twenty_first_round_stand_downs_do_not_hide_a_present_sign(text):
    assert rule_gate(normalize_text(text)) is not None
