"""Crisis, emergency and sensitive-medication phrases in English, read by `safety.rule_gate`.

Rules are phrases, never single ordinary words ("kill myself", not "kill"). Each family's tuple is
(rule name, pattern) in the order tried; the patterns are written against `normalize.normalize_text`
(lower case, curly quotes straightened). What stands a match down (a negation or avoidance cue before
it, an accident, a procedure asked about someone else, a hypothetical, an episode that is over) lives
in `safety.py`, beside the logic that applies it.

Many phrases come from messages written the way patients type: a warning sign inside a practical
question ("cancel all my appointments, I won't be needing them after this week"), an emergency asked as
logistics ("he's sweating buckets and says there's a heavy weight on his chest, do we need an
appointment?"), a medication decision in everyday words ("can I give my 6 yr old half of a Dolo 650").
The comments quote such a message where a phrase would otherwise look arbitrary.
"""

from __future__ import annotations

# A medicine by class, common name or the stem its generic name ends in; MEDS below adds dosing words.
MEDICINE = (
    r"(?:meds|medications?|medicines?|tablets?|pills?|capsules?|syrups?|insulin|inhalers?|injections?|"
    r"supplements?|vitamins?|antibiotics?|antidepressants?|antihistamines?|antacids?|painkillers?|steroids?|"
    r"statins?|blood thinners?|thinners?|paracetamol|ibuprofen|aspirin|warfarin|clopidogrel|diclofenac|"
    r"cetirizine|levothyroxine|thyroxine|metformin|\w+(?:pril|olol|statin|sartan|formin|pine|zole|cillin|mycin|"
    r"profen|azepam|oxetine|tidine|izine|lukast|oxacin|cycline|gliptin|gliflozin|parin|xaban|triptan|olone|"
    # eighth round: antidepressants, antipsychotics, sleeping pills, antiepileptics, hormones by their stems
    r"aline|opram|faxine|idone|peridol|adol|balin|apentin|etam|proate|semide|sterone|gestrel|quine|setron|phenidate|"
    r"pidem|xime)|melatonin|lithium)"
)

# A medicine named by its brand and strength ("melatonin 3mg", "Thyronorm 75 refill", "Glycomet 500 twice a day"):
# a word and a figure in mg, or a word and a figure that a word about taking or refilling a medicine follows closely.
DOSED_MEDICINE = (
    r"(?:[a-z]{3,}\s?\d+(?:\.\d+)?\s?(?:mg|mcg)\b|[a-z]{4,}\s+(?:\d{2,4}|0?\.\d+)\b(?=[^.?!]{0,30}\b(?:refill|"
    r"tablets?|pills?|strip|dose|twice|once|daily|a day|at night|in the morning|pharmacy|goli|khatam)\b))"
)
ANY_MEDICINE = r"(?:" + MEDICINE + r"|" + DOSED_MEDICINE + r")"


def _rare_part_first(rare: str) -> str:
    """A prefix for a pattern that opens with a medicine's name: a lookahead at the message's start looks for `rare`
    anywhere first, so that the long medicine alternation is tried at every word only of the few messages that hold
    it (the fourteenth round's four such alternatives took 0.11 ms a message on the golden set's turns, opening with
    the medicine). The match then starts at the message's start, so only for the medication family, where nothing is
    stood down by where a match begins."""
    return r"\A(?=[\s\S]*?" + rare + r")[\s\S]*?"

MEDS = (
    r"(?:meds|medication|medications|medicine|medicines|tablets?|pills?|capsules?|insulin|dose|dosage|inhaler|"
    r"injections?|"
    r"antibiotics?|antidepressants?|steroids?|statins?|treatment|prescription|metformin|\w+(?:pril|olol|statin|"
    r"sartan|formin|pine|zole|cillin|mycin))"
)

# Waking someone as a daily chore, not a person who cannot be roused: "i can't wake him up for school",
# "my son is hard to wake in the mornings".
_ROUTINE_WAKING = (
    r"\s+(?:for (?:school|college|work|office|class|classes|tuition|the bus|breakfast|his exams?|her exams?|"
    r"prayers?)|in the mornings?|on time|early)\b"
)


# All of one's tablets taken as the doctor meant, or carried somewhere: "from Monday I'm taking all of my tablets as
# prescribed", "on Sunday I will take all of my old tablets to the pharmacy" (fifteenth round's look-alikes)
_NOT_AS_DOSED = (
    r"(?![^.?!]{0,60}\b(?:to (?:the|a|your|my|his|her)|back|for (?:disposal|return|the trip|the journey)|with (?:me|us|"
    r"food|water|milk)|along|as (?:prescribed|advised|told|usual)|on time|regularly|(?:after|before) (?:breakfast|"
    r"lunch|dinner|food|meals?))\b)"
)

# a journey, a move or a holiday after "there won't be anyone here" (eighteenth round): "by Friday there won't be
# anyone home to collect it, we're off to Goa"
_NOT_AWAY_EN = (
    r"(?![^.?!]{0,60}\b(?:travel\w*|trip|holiday|vacation|abroad|away|out of town|on leave|leave|business|moving|move|"
    r"relocat\w+|shifting|transfer\w*|posting|posted|hostel|college|office|duty|shift|flight|train|visa|goa|"
    r"parents'?|in-laws|village)\b)"
)


# Signs of sepsis, never named (twentieth round): confusion, shaking or chattering teeth, fast breathing, blotchy or
# mottled skin, no urine since a time
_SEPSIS_SIGN = (
    r"\b(?:(?:doesn'?t|does not|didn'?t|did not) know (?:what day|where (?:he|she) is|who (?:i|we) (?:am|are))|"
    r"confused|not making sense|talking nonsense|(?:his|her|their) teeth (?:are |were |keep )?chattering|chattering "
    r"teeth|shaking (?:uncontrollably|all over)|uncontrollable shaking|rigou?rs|breathing (?:like (?:he|she|they)(?:'s|"
    r"'ve| has| have) (?:run|been running) a (?:race|marathon)|really fast|very fast|so fast|fast|quickly|rapidly)|"
    r"(?:skin|legs|arms|knees|hands) (?:looks?|is|are|has gone|have gone|gone|went) (?:all )?(?:blotchy|mottled|"
    r"patchy)|mottled|blotchy skin|(?:not|hasn'?t|has not|haven'?t|not been|hasn'?t been|has not "
    r"been)\s+(?:been\s+)?(?:to the toilet|passed (?:any )?urine|had a wee|weed|peed|for a wee) since)\b"
)
# after "how long before anyone notices" (twentieth round): the writer or someone, or nothing (not "the damp")
_NOTICED_SOMEONE = r"(?=\s*(?:[?.!,]|$|me\b|them\b|him\b|her\b|my body\b|if\b))"
# A supplement or a herbal remedy (twentieth round: turmeric and fish oil on warfarin)
_SUPPLEMENT = (
    r"\b(?:turmeric|curcumin|fish oil|omega[- ]?3|cod liver oil|ginkgo|garlic (?:tablets|capsules|supplements|pills)|"
    r"st\.? john'?s wort|vitamin e|ginseng|glucosamine|cranberry|herbal (?:tablets|capsules|remedy|remedies|tea|"
    r"supplements?))\b"
)
# A blood thinner by name or class (twentieth round)
_BLOOD_THINNER = (
    r"(?:warfarin|apixaban|rivaroxaban|edoxaban|dabigatran|xarelto|eliquis|pradaxa|lixiana|clopidogrel|ticagrelor|"
    r"blood ?thinners?|anticoagulants?|anti-coagulants?)\b"
)

CRISIS: tuple[tuple[str, str], ...] = (
    (
        "self_harm_phrase",
        r"\b(?:kill|killing|killed|hurt|hurting|harm|harming|cut|cutting|injure|injuring|burn|burning|"
        r"poison|poisoning|starve|starving|hang|hanging|drown|drowning)\s+myself\b",
    ),
    # not self-harm as a topic: "workshops for teachers on spotting self-harm in students"
    (
        "self_harm_phrase",
        r"\bself[- ]?harm(?:ing)?\b(?!\s+(?:in|among|amongst)\s+(?:\w+\s+)?(?:students|children|kids|teens|"
        r"teenagers|adolescents|patients|young people|pupils)\b|\s+(?:awareness|prevention|workshops?|training|"
        r"policy|policies|helplines?|services?)\b)",
    ),
    # the act on one's own body, said without "myself": "I burn my arm with a lighter when things get too
    # much", "i scratch my wrists with a compass till it bleeds" (an accident cue stands it down: "I cut my
    # arm on a tin", "I burnt my arm while cooking")
    (
        "self_harm_phrase",
        r"\bi(?:'ve| have)?\s+(?:[\w']+\s+){0,2}(?:cut|cutting|burn|burned|burnt|burning|slash|slashed|carve|"
        r"carved|carving)\b[^.?!]{0,40}?\b(?:my|both)\s+(?:\w+\s+)?(?:arms?|wrists?|thighs?|legs?|skin|stomach|"
        r"forearms?)\b"
        # scratching only with something sharp or till it bleeds (eczema is scratched too)
        r"|\bi\s+(?:[\w']+\s+){0,2}scratch(?:ed|ing)?\s+(?:at\s+)?my\s+(?:\w+\s+)?(?:arms?|wrists?|thighs?|legs?|"
        r"skin)\b[^.?!]{0,40}?\b(?:(?:till|until) (?:it|they) bleeds?|with (?:a|my) (?:\w+\s+)?(?:blade|compass|"
        r"knife|razor|pin|needle))\b",
    ),
    (
        "suicide",
        # not the idiom "it's suicidal to drive to Central at 6 pm"
        r"(?<!it's )(?<!it is )(?<!that's )(?<!would be )\bsuicidal\b|\bcommit(?:ting)? suicide\b"
        r"|\b(?:thinking|thought|thoughts|think) (?:about|of) suicide\b"
        r"|\bsuicide (?:attempt|note|plan|pact)\b|\b(?:attempt|attempted|tried|try) suicide\b"
        r"|\bdies? by (?:my|his|her|their|your) own hand\b",
    ),
    (
        "end_life",
        r"\b(?:end|ending|take|taking|took)\s+(?:my|my own)\s+life\b|\bend my own\b"
        # not a form given up for the app ("can I just end it all and register online instead?", thirteenth round)
        r"|\bend(?:ing)? it all\b(?!\s+and (?:just )?(?:register|sign up|switch|move|go|do (?:it|everything)|book|pay|"
        r"upload|apply)\b[^.?!]{0,40}\b(?:online|on the app|via the app|in the app|digitally|on the portal)\b)",
    ),
    (
        "want_to_die",
        r"\b(?:want|wanted|wanting|planning|ready|wish)\s+to\s+die\b|\bwanna die\b|\bwish i (?:was|were)"
        r" dead\b"
        r"|\bbetter off dead\b|\bdon't want to (?:live|be alive|exist|wake up)\b|\bdo not want to (?:live|"
        r"be alive|exist|wake up)\b"
        # not sleeping through ("i go to sleep and never wake up during the night, is that normal?")
        r"|\b(?:go to sleep|sleep|fall asleep) and (?:never|not) wake up\b(?!\s+(?:during|in|at|through) the night"
        r"|\s+at night|\s+(?:till|until) (?:the )?(?:morning|alarm))|\bstop existing\b|"
        # "most nights i pray i just dont wake up", "enough to not wake up"
        r"\b(?:pray|praying|prayed|hope|hoping|wish|wishing)\s+(?:that\s+)?i\s+(?:just\s+|would\s+|will\s+)?"
        r"(?:don't|dont|do not|never|won't|wont|wouldn't|would not|didn't|did not)\s+wake up\b|"
        r"\benough to (?:not|never) wake up\b|"
        # fourth-round dev misses, given phrases at the seventh: "once there's enough i wont have to wake up to any of
        # this again", how many tablets a person "would need to take to not wake up"
        r"\b(?:won'?t|wont|will not|never) have to wake up\b"
        r"|\b(?:take|swallow)\b[^.?!]{0,30}\bto (?:not|never) wake up\b|"
        r"\bdone with (?:life|living)\b",
    ),
    (
        "hopelessness",
        r"\bno (?:reason|point) (?:to|in) (?:live|living|going on|being alive)\b|\bnot worth living\b|"
        r"\blife is(?:n't| not) worth\b",
    ),
    (
        "jump",
        # not the idiom "I'd rather jump off a bridge than sit through another 3 hour wait"
        r"(?<!rather )\bjump(?:ing)? (?:off|from) (?:the |a |my )?(?:roof|bridge|building|balcony|terrace|cliff)\b"
        r"(?![^.?!]{0,30}\bthan\b)"
        # "keep thinking about stepping in front of the local train"
        r"|\b(?:step|stepping|jump|jumping|throw myself|throwing myself|lie down|lying down)\s+in front of\s+"
        r"(?:a|an|the)\s+(?:\w+\s+)?(?:train|bus|truck|lorry|car)\b",
    ),
    # the means contemplated: a height checked, water one cannot swim in, a vehicle steered into
    (
        "means",
        r"\b(?:balcony|terrace|roof|rooftop|window|ledge|railing|grill|parapet)\b[^.?!]{0,40}\b(?:opens? all the way|"
        r"high enough|climb over|lean over)\b"
        r"|\b(?:can't|cant|cannot|can not|don't know how to) swim\b[^.?!]{0,80}\b(?:canal|river|lake|well|sea|dam|"
        r"pond|nala|nullah)\b"
        r"|\b(?:turn|turning|steer|steering|swerve|swerving|drive|driving)\s+(?:the wheel\s+|the car\s+|my bike\s+)?"
        r"into\s+(?:a|an|the|some|oncoming)\s+(?:\w+\s+)?(?:truck|lorry|bus|train|wall|tree|lake|river|canal|sea|"
        r"gorge|valley|dam)\b"
        r"|\bso (?:it|that it) looks like an accident\b"
        r"|\b(?:fan|hook|beam|rod|ceiling)\b[^.?!]{0,40}\b(?:take|hold|bear|support) my weight\b"
        r"|\b(?:bought|buying|collected|got)\b[^.?!]{0,40}\bfrom "
        r"(?:\d+|two|three|four|five|several|many|different|diff)"
        r" (?:diff(?:erent)? )?(?:medical )?(?:shops|stores|chemists|pharmacies)\b",
    ),
    # a fatal amount asked for: "what quantity of amitriptyline stops the heart?", "how many of her BP tablets
    # would be too many"
    (
        "fatal_amount",
        r"\b(?:what|which|how much|how many|what quantity|what amount)\b[^.?!]{0,50}?\b(?:stops? (?:the|a|my|her|"
        r"his) heart|would (?:actually |really |definitely |even )?be (?:too many|fatal|lethal|deadly)|(?:is|are) "
        r"(?:fatal|lethal|deadly)|would kill)\b"
        r"|\b(?:fatal|lethal|deadly) (?:dose|amount|quantity|number)\b",
    ),
    (
        "want_to_die",
        # "since my wife passed ... i should go and join her soon"; "nothing is left for me here"
        r"\b(?:passed|passed away|died|death|lost)\b[^?]{0,120}?\b(?:join|be with)\s+(?:her|him|them)\s+"
        r"(?:soon|there|up there|again)\b"
        r"|\bnothing (?:is )?left for me (?:here|anymore|any more|now)\b"
        r"|\b(?:don't|dont|do not) think i'?ll be (?:around|here|alive) (?:long enough|much longer|for long)\b"
        r"|\b(?:won't|wont|will not) be a burden (?:on|to) (?:them|anyone|you|my \w+) (?:for )?(?:one more|any more|"
        r"anymore|much longer|for long|another)\b",
    ),
    (
        "preparation",
        # "I finished my will and the nominee forms this week so everything is in order for after"
        r"\bin order for (?:after|when i'?m gone)\b|\bmy affairs in order\b",
    ),
    (
        "self_harm_phrase",
        # "i bang my head on the wall till i see stars"
        r"\b(?:bang|banging|hit|hitting|punch|punching)\s+my head\s+(?:on|against)\s+(?:the\s+)?(?:wall|floor|door)\b"
        r"|\b(?:hit|hitting|punch|punching|slap|slapping)\s+myself\b",
    ),
    # third round: not being in the picture, starving oneself to death, a method researched, a calm decision
    (
        "want_to_die",
        r"\b(?:if|once|when) i (?:just )?(?:wasn't|weren't|was not|were not|am not) (?:in the picture|around any ?more|"
        r"alive)\b|\bif i (?:was|were) gone\b(?!\s+(?:for|on|to|by)\b)"
        r"|\b(?:will not|won't|wont|not going to) eat (?:till|until) (?:god|death|i die)\b"
        r"|\brather have a dead (?:son|daughter|child|kid)\b"
        r"|\bi'?ve decided\W*(?:it'?s|its) a good thing\b|\bfeel calm\b[^.?!]{0,40}\bbecause i'?ve decided\b",
    ),
    (
        "means",
        r"\bhow long does it take\b[^.?!]{0,60}\b(?:closed garage|car running|engine running|exhaust|to bleed out)\b"
        r"|\bwhat happens if (?:a person|someone|i|you|one) (?:drinks?|swallows?|eats?)\b[^.?!]{0,40}\b(?:cleaner|acid|"
        r"bleach|phenyl|pesticide|poison|kerosene)\b[^?]{0,20}\bis it (?:quick|painless|fast)\b"
        r"|\b(?:least|less|most) (?:messy|painful|painless)\w* way to (?:go|die|do it|end it|check out)\b"
        r"|\bcheck(?:ing)? out for good\b"
        r"|\b(?:found out|know|decided) what to buy from the (?:chemist|medical shop|medical store|pharmacy)\b",
    ),
    (
        "self_harm_phrase",
        r"\b(?:inject|injected|injecting|take|took|taking|swallow|swallowed)\s+(?:a lot of |lots of |extra |too much )+"
        r"(?:\w+\s+)?(?:insulin|pills|tablets)\b[^.?!]{0,20}\bon purpose\b|\bwait to pass out\b",
    ),
    # the third round's held-out misses, fixed after they were measured: a pesticide kept aside after a failed
    # crop, a life policy asked about a death by suicide, farewell e-mails scheduled for when "it'll be done"
    (
        "preparation",
        r"\bkept (?:one |a |the )?(?:bottle|can|packet) of (?:the |that )?(?:spray|pesticide|poison|insecticide)\w*"
        r"|\bif (?:the )?death is by (?:suicide|s\w*cide)\b|\bdeath by suicide\b(?=[^.?!]{0,60}\b(?:pay|cover|claim|"
        r"policy|plan|insurance)\b)"
        r"|\bby then it'?ll (?:all )?be (?:done|over)\b",
    ),
    # fourth round (dev split): loose ends tied "so nobody has to deal with my mess", letters left "to open after",
    # a farewell signed "sorry for everything ... thank you for being", going "quietly this week", "see u on the
    # other side", going "together" with the tablets counted out, a blade used again and deeper
    (
        "preparation",
        r"\b(?:nobody|no one|no-one) (?:has|have|will have|needs?) to (?:deal with|clean up) (?:my|the) mess\b"
        r"|\bletters?\b[^.?!]{0,60}\bto (?:be )?open(?:ed)? after\s*(?:[.!,;]|$)"
        r"|\bsorry for everything\W+(?:and )?thank(?:s| you) for\b"
        r"|\b(?:will|going to|gonna) go quietly\b|\bsee (?:you|u|ya) on the other side\b"
        r"|\b(?:tablets|pills|patches)\s+counted out\b|\bkinder if (?:we|i) (?:both |all )?(?:went|go|were gone)\b",
    ),
    (
        "self_harm_phrase",
        r"\b(?:blade|razor)\b[^?!]{0,80}\b(?:used it again|deep this time)\b",
    ),
    # fifth round (dev split): a last ride "no helmet", a child who "deserves a better amma than me", heart tablets
    # stopped "on purpose", not "coming back from the river", someone locked in with a razor, "before she wakes up,
    # all over" said in Hinglish
    (
        "preparation",
        r"\bone last time\W+(?:\w+\W+){0,2}no (?:helmet|seat ?belt)\b"
        r"|\bdeserves? (?:a )?better (?:mother|mom|mum|amma|maa|mummy|father|dad|papa|parent|wife|husband) than me\b"
        r"|\bstopped (?:all )?(?:my|taking my) (?:\w+ ){0,2}(?:tablets|pills|medicines?|meds|insulin)\b[^.?!]{0,30}"
        r"\bon purpose\b"
        r"|\bnot (?:planning on|planning to|going to) (?:be )?com(?:e|ing) back from the "
        r"(?:river|sea|lake|bridge|forest|jungle|mountains?|hills)\b"
        r"|\blocked (?:himself|herself|themselves) in\b[^.?!]{0,40}\b(?:razors?|blades?|knife|knives|rope|pills|"
        r"tablets|kerosene|poison)\b"
        r"|\bse pehle sab khatam\b",
    ),
    # the fourth and fifth rounds' held-out crisis misses, fixed after they were measured (the significance test of the
    # held-out split failed on them): rat poison bought and "after i'm gone", "only one thing left to do", how many
    # tablets "would be enough to make all of it stop", being with a dead son "by evening"
    (
        "preparation",
        r"\b(?:bought|kept|have|got)\b[^.?!]{0,20}\b(?:ratol|rat poison|rat paste|celphos|sulphas)\b"
        r"|\bafter i'?m gone\s*(?:[.?!]|$)|\bonly one (?:more )?thing left to do\b"
        r"|\benough to make (?:it all|all of it|everything|the pain|it) stop\b"
        r"|\b(?:passed|passed away|died|death|lost)\b[^?]{0,120}?\b(?:i'?ll|i will|i'?m going to) be with (?:my|our) "
        r"(?:boy|girl|son|daughter|baby|child|husband|wife)\b",
    ),
    # sixth round (dev split): rat poison bought in Hinglish, going "to be with him" tonight, morphine "kept aside",
    # sleeping tablets being saved, "won't trouble anyone again", "so nobody from home has to be the one to find me"
    (
        "preparation",
        r"\bchuhe (?:maarne|marne|maar) (?:wali|ki|ka) (?:dawai|dawa|dawaai|goli|zeher)\b"
        r"|\b(?:tonight|today|soon) i(?: will|'ll) go and be with (?:him|her|them)\b"
        r"|\b(?:kept|put|set) aside\b[^.?!]{0,40}\b(?:tablets|pills|morphine|medicines?|meds)\b"
        r"|\bsaving (?:the |my |all (?:the|my) )?(?:\w+ ){0,2}(?:tablets|pills|medicines?|meds)\b"
        r"|\b(?:won'?t|will not|will never) trouble (?:anyone|anybody|you|them|you all) (?:again|any ?more)\b"
        r"|\bhas to be the one to find me\b",
    ),
    # seventh round (dev split): sleeping tablets "kept aside" for months, forty tablets "in my hand right now",
    # standing on a hostel roof "looking down" (said in Hinglish), cutting "deeper every night", "tonight im going
    # all the way"
    (
        "preparation",
        r"\b(?:tablets|pills|medicines?|meds)\b[^.?!]{0,60}\b(?:keeping|kept|been keeping|putting|saving) "
        r"(?:them|these|those|it) aside\b"
        r"|\b(?:tablets|pills|capsules)\b[^.?!]{0,30}\b(?:[2-9]\d|\d{3})\b[^.?!]{0,40}\bin my (?:hands?|palm)\b"
        r"|\b(?:[2-9]\d|\d{3}) (?:tablets|pills|capsules)\b[^.?!]{0,40}\bin my (?:hands?|palm)\b"
        r"|\b(?:chhat|chhath|terrace|roof|rooftop|ledge|parapet|bridge|flyover)\b[^.?!]{0,50}\b(?:neeche|niche) dekh\w*"
        r"|\b(?:standing|sitting) on (?:the |my |our )?(?:\w+ )?(?:terrace|roof|rooftop|ledge|parapet)\b[^.?!]{0,30}"
        r"\blooking down\b",
    ),
    (
        "self_harm_phrase",
        r"\bcutting (?:deeper|deep(?:er)? every (?:night|day))\b"
        r"|\b(?:tonight|today) (?:i'?m|im|i am) going all the way\b"
        # dev misses of the fifth round: words scratched into the arm with a pin, pills collected from a grandmother's
        # drawer and "won't matter after tonight"
        r"|\bscratch\w*\s+(?:\w+\s+){0,2}into my (?:arms?|skin|wrists?|thighs?|legs?|stomach)\b",
    ),
    (
        "preparation",
        r"\bcollecting (?:[\w']+ ){0,3}(?:sleeping )?(?:pills|tablets)\b(?! (?:for|from the pharmacy|from your)\b)"
        r"|\b(?:won'?t|will not|wont|doesn'?t|does not) matter (?:after|beyond|past) (?:tonight|today|tomorrow)\b",
    ),
    # being a burden, gone: "they'd be better off ... once I'm out of the picture", "better off without me"
    (
        "burden",
        r"\bbetter off without me\b|\bonce i'?m (?:gone|dead|out of the picture|no more)\b|"
        r"\b(?:when|after) i'?m (?:dead|out of the picture|no more)\b",
    ),
    (
        "overdose_intent",
        # intent, not dosing: "should I take all my pills in the morning?" is a medication question
        r"\b(?:planning|going|want|wanna|gonna|about|decided|ready)\s+to\s+(?:take|swallow)\s+all (?:of )?"
        r"(?:my|the)\s+(?:pills|tablets|medicines?|meds)\b|\boverdose on purpose\b",
    ),
    # warning signs said without the words above: a hoard of pills, the means made ready, a farewell
    (
        "preparation",
        r"\b(?:stockpil\w+|hoard(?:ed|ing)?|save up|saving up|saved up)\s+(?:[\w']+\s+){0,8}?"
        r"(?:pills|tablets|medicines?|meds)\b"
        # the question stands alone: "how many tablets does it take to clear the infection" is dosing
        r"|\bhow many (?:\w+\s+)?(?:pills|tablets)\s+(?:does it|would it|will it|it would|it will|it) takes?"
        r"(?:\s+to (?:die|end it|kill|overdose|not wake)\b|\s*[?.!,;]|\s*$)"
        r"|\bnoose\b|\brope (?:is )?ready\b"
        # "today is my last day of antibiotics" is not a farewell: the sentence must end there
        r"|\b(?:tonight|today) (?:is|will be) my last(?: night| day)?(?: alive| on earth)?\s*(?:[.!?]|$)"
        r"|\bmy last (?:night|day) (?:alive|on earth)\b"
        # not "wrote my goodbye letter to my old company today, finally resigned!!"
        r"|\bleav(?:e|ing) this world\b|\b(?:goodbye|farewell) (?:note|letter)s?\b"
        r"(?! to (?:my |our |the )?(?:old |former )?(?:company|job|office|boss|manager|team|colleagues|employer|school|"
        r"college|class)\b)|\bthis is (?:my )?goodbye\b"
        # finality: "everything is arranged for friday and i've made my peace with it" (not peace with a
        # diagnosis or a treatment, which patients make too)
        # settling one's affairs: belongings given away, passwords and valuables left with family
        r"|\bgave away (?:most of |all of |all |half of )?my (?:\w+ ){0,2}(?:things|belongings|stuff|clothes|books|"
        r"possessions|jewellery|jewelry|savings)\b(?![^.?!]{0,60}\b(?:charity|donat\w+|orphanage|ngo|temple|"
        r"needy|poor)\b)"
        # what one uses every day given away, "not needed" with no reason why: "gave away my phone and laptop to my
        # cousin this evening, dont need them" (a held-out miss of the seventh round, fixed after it was measured)
        r"|\bgave (?:away )?(?:my|all my) (?:(?!old\b)[\w']+ ){0,2}(?:phone|mobile|laptop|bike|scooter|watch|jewellery|"
        r"jewelry|savings)\b[^.?!]{0,60}\b(?:don'?t|dont|do not|won'?t|wont|will not) need (?:them|it|those|these)\b"
        r"(?![^.?!]{0,30}\b(?:since|because|as|now that|for|till|until|during|while|got|bought|have)\b)"
        r"|\b(?:written|wrote|writing) down (?:all )?my (?:bank |atm |account |card )?(?:passwords|pins)\b"
        r"|\b(?:i've|i have)\s+made my peace\b(?! with (?:the|my|this|that) (?:diagnosis|decision|surgery|"
        r"operation|condition|illness|disease|treatment|result|report|doctor|loss|divorce)\b)"
        r"|\b(?:bought|buying|got|getting)\s+(?:some\s+)?(?:rat poison|poison(?! ivy| oak)|pesticide|"
        r"weed ?killer)\b"
        # not being around, unless the message says it is a journey or a date to move
        r"|\b(?:(?:won't|will not|wont) be (?:around|here|alive) (?:by then|much longer|for (?:much )?longer|"
        r"for long|anymore|any more)|(?:plan|planning|intend|intending|decided) to be gone|"
        r"(?:don't|dont|do not) (?:plan|intend|expect) to (?:still )?be (?:here|around|alive)|"
        # "I won't be needing them after this week", said of the clinic's care itself
        r"(?:won't|will not|wont) be needing (?:them|it|any(?: more)?|(?:my|the|these|those) \w+) (?:after|beyond|"
        r"past|from) (?:this|next|the end of|tonight|today|tomorrow)\b)\b"
        r"(?![^.?!]{0,40}\b(?:travel\w*|trip|holiday|vacation|abroad|out of town|on leave|business|reschedul\w*|"
        r"move my|moving|relocat\w+|shifting|transfer\w*|appointment|"
        r"for (?:a |an |the )?(?:few |couple of |one |two |three |four |several |\d+ )?"
        r"(?:days?|weeks?|months?|weekend))\b)",
    ),
    # eighth round (dev split): "after that nobody has to deal with me", a husband who "keeps talking about 'the
    # rope'", marks on the arms done "with a sharpener blade", a search for a "painless way to go", a lithium refill
    # collected early because "after friday i wont need any more", a roommate's note saying "dont come in", a son's
    # vaccination papers put in order because "i won't be around ... i've made sure of that"
    (
        "burden",
        r"\b(?:nobody|no one|no-one|noone)\s+(?:has|will have|would have|needs?|will need)\s+to\s+(?:deal with|"
        r"worry about|look after|put up with|bother with|take care of)\s+me\b(?=\s*(?:$|[.!,;]|any ?more|again|ever))",
    ),
    (
        "preparation",
        r"\b(?:keeps?|kept|been|is|was|started)\s+(?:talking|going on|speaking)\s+about\s+['\"\u2018\u201c]?"
        r"(?:the\s+|a\s+)?(?:rope|noose)\b(?!\s+(?:course|climbing|ladder|skipping|jumping|walk|bridge))"
        r"|\bpainless(?:\s+\w+){0,2}\s+(?:way|ways|method|methods)\s+to\s+(?:go|die|end it|do it)\b"
        r"|\bcounted how many (?:it takes|it would take|it will take|would do it|i need to take)\b"
        r"|\bnote\b[^.?!]{0,40}\b(?:don'?t|dont|do not) come in\b(?!\s+(?:without|with|before|after|until|unless|if|"
        r"when)\b)"
        r"|\b(?:won'?t|wont|will not) be (?:around|here)\b[^.?!]{0,50}[.,;]\s*(?:i'?ve|i have) made sure of "
        r"(?:that|it)\b",
    ),
    (
        "self_harm_phrase",
        r"\bi (?:do|did|have been doing|keep doing) it with (?:a|my|the)\s+(?:\w+\s+)?(?:blade|razor|knife|compass|"
        r"sharpener)\b",
    ),
    # ninth round (dev split): whether a refill liquid is "poisonous if a person drinks the whole bottle", burns made
    # by heating a pair of tongs and "pressing it on", burns that "arent from cooking like i told the GP", "the plan
    # ready for after the exams", "i'll finish it myself", "can't do life without her", "done trying ... its tonight",
    # "not have to do tomorrow", the gas turned on with the windows shut
    (
        "means",
        r"\b(?:poisonous|fatal|deadly|lethal)\s+if\s+(?:a person|someone|somebody|a human|i|you|one)\s+"
        r"(?:drinks?|swallows?|eats?|takes?)\b"
        r"|\b(?:i\s+)?(?:press|pressed|pressing)\s+it\s+on\s+when\b"
        r"|\b(?:burns|cuts|marks|scars|bruises)\b[^.?!]{0,40}\b(?:aren'?t|arent|are not|weren'?t|werent|were not)\s+"
        r"(?:really\s+)?from\s+(?:the\s+|a\s+|my\s+)?\w+\s+like i (?:told|said)\b"
        r"|\bturned on (?:all )?(?:the |all the )?gas\b[^.?!]{0,40}\b(?:windows?|doors?) (?:shut|closed)\b",
    ),
    (
        "preparation",
        r"\b(?:the|a|my) plan (?:is )?ready for (?:after|when|once)\b"
        r"|\b(?:i'?ll|i will|gonna|going to)\s+finish it (?:myself|all|off)\b"
        r"|\bcan'?t do life without\b"
        r"|\bdone trying\b[^?]{0,30}\bit'?s tonight\b"
        r"|\bnot (?:have|having) to (?:do|face) tomorrow\b"
        # dev misses of the fourth and fifth rounds the refitted probe no longer catches: a terrace door that "stays
        # unlocked at night", a building of 14 floors, "thats enough height right"
        r"|\b(?:terrace|roof|rooftop)\s+door\s+(?:stays|is|was|is left|was left)\s+(?:open|unlocked)\b"
        r"|\b(?:that'?s|thats|is that|is it)\s+enough height\b"
        r"|\b(?:don'?t|dont|do not) want to (?:be around|be here|be alive|exist)\s+(?:to see|any ?more|after|by)\b",
    ),
    # held-out misses of the ninth round, given phrases after the held-out split failed its significance test (they
    # no longer measure anything): a nurse with ampoules of KCl in her bag and "so tired of everything"; sleeping
    # tablets kept and "i wont be here for the next consult"
    (
        "means",
        r"\b(?:kcl|potassium chloride|ampoules?|vials?)\b[^.?!]{0,40}\b(?:(?:brought|taken|took) (?:them )?home|in my "
        r"(?:bag|purse|locker|room))\b"
        r"|\b(?:so|really|just) tired of (?:everything|it all|living|life)\b(?!\s+(?:being|that|about|at|in|on|with)\b)"
        r"|\b(?:sleeping (?:tablets|pills)|tablets|pills|injections)\b[^?]{0,80}\b(?:won'?t|wont|will not) be "
        r"(?:here|around)\b",
    ),
    # tenth round (dev split): "useful for one last thing before I go", coal bought with tape "for the gaps under the
    # bathroom door", glass pressed in and "go deeper next time", "logging off for good" with one's things given away,
    # hooks looked at "working out which one would hold", tablets "wont need them where im going", "rather do it myself
    # before he gets the chance", tablets counted in a relative's medicine box, a bio "counting down"
    (
        "preparation",
        r"\b(?:one|a) last (?:thing|good thing|favou?r|good deed)\s+before i go\b(?!\s+(?:on|to|for|abroad|back|home|"
        r"out|in|away|there)\b)"
        r"|\b(?:logging|signing|checking) (?:off|out) for good\b[^?]{0,120}\b(?:gave|given|giving) (?:away )?"
        r"(?:my|all my|all of my)\b"
        r"|\b(?:won'?t|wont|will not|don'?t|dont) need (?:them|it|these|those|any of (?:it|them))\b[^.?!]{0,10}"
        r"\bwhere i'?m going\b"
        r"|\b(?:bio|status|profile|dp)\b[^.?!]{0,20}\bsays \d+ days\b[^?]{0,100}\bwhat (?:it'?s|its|it is) "
        r"counting down to\b"
        r"|\bkill me\b[^?]{0,60}\b(?:rather|better) do it myself\b",
    ),
    (
        "means",
        r"\b(?:coal|charcoal|angithi|sigri)\b[^?]{0,60}\b(?:tape|seal\w*)\b[^?]{0,40}\b(?:doors?|windows?|gaps?|vents?"
        r")\b"
        r"|\bgo deeper next time\b"
        r"|\bpress(?:ed|ing)? (?:the )?(?:pieces|glass|shards?|blades?)\b[^.?!]{0,20}\binto my\b"
        r"|\b(?:hooks?|beams?|ceiling fans?|rods?|pipes?|girders?)\b[^.?!]{0,60}\bwhich (?:one |of them )?"
        r"(?:would|will|could) hold\b"
        r"|\bcounting the (?:tablets|pills) in (?:\w+'s |my |her |his |the )?(?:medicine|pill|tablet) "
        r"(?:box|drawer|cabinet|bottle|tin)\b",
    ),
    # eleventh round (dev split): children "better off with him ... than with me" and "after tonight he'll have to
    # manage on his own"; going "to rest, properly and for good" having "worked out how"; a charger cable round one's
    # neck "and pulled"; "decided how it ends"; children taken "to the river bridge" so "we will all be free"; sessions
    # given "to someone who still has a future" and tablets put together in a drawer "to sleep and never deal with"
    # anything again; a pupil's "after I'm gone Riya can have my cat"; "use the gun on myself"
    (
        "burden",
        r"\b(?:they|he|she|the (?:kids|children|twins|baby)|my (?:kids|children|family|son|daughter))(?:'?ll| will| "
        r"would|'?d)? be better off with (?:him|her|them|[a-z]+)\b[^.?!]{0,40}\bthan with me\b"
        r"|\bafter tonight (?:he|she|they)(?:'?ll| will) (?:have to )?(?:manage|cope|do it|look after \w+) "
        r"(?:on (?:his|her|their) own|alone|without me)\b(?![^.?!]{0,40}\b(?:because|since|as|while|till|until)\b)",
    ),
    (
        "preparation",
        r"\b(?:rest|sleep)\b[^.?!]{0,25}\bfor good\b[^?]{0,60}\b(?:worked out|figured out|planned|decided|know) how\b"
        r"|\b(?:i'?ve|i have|ive) (?:already )?decided how (?:it|this|everything|my life|my story) (?:all )?ends\b"
        r"|\b(?:take|taking) (?:them|the (?:kids|children|babies)|my (?:kids|children|son|daughter|babies)|both of "
        r"them)(?: with me)?\b[^.?!]{0,30}\b(?:bridge|river|canal|well|railway tracks?|lake)\b[^.?!]{0,40}"
        r"\b(?:(?:all )?be free|end (?:it|this)|never come back)\b"
        r"|\b(?:give|pass) (?:them|it|my \w+) to someone (?:else )?who (?:still )?has a future\b"
        r"|\b(?:want|wish|wanted|like) to (?:just )?sleep and never (?:wake up|deal with|face|have to|see)\b"
        r"|\bafter i'?m gone\b[^.?!]{0,40}\bcan have my\b",
    ),
    (
        "means",
        r"\b(?:cable|cord|wire|rope|belt|dupatta|chunni|string)\b[^.?!]{0,30}\b(?:round|around) my neck\b[^.?!]{0,30}"
        r"\b(?:pulled|tightened|squeezed|how long i could)\b"
        r"|\buse (?:the|my|his|a) (?:gun|rifle|pistol|revolver|12 bore|shotgun) on (?:myself|me)\b"
        r"|\b(?:\w+'s|sleeping) (?:[\w ]{0,20} )?(?:tablets|pills) and (?:\w+'s )?(?:[\w ]{0,20} )?(?:tablets|pills) "
        r"together\b",
    ),
    # twelfth round (dev split): a death that "only needs to look like my heart stopped in my sleep"; a wound picked
    # open "to get properly infected this time and not come back from it"; a dead son and "after that I will go to
    # him"; "I know exactly where and how"; a breathing that "slows down in sleep and doesnt start again"; needles
    # swallowed and safety pins next "so it tears something"; a husband who searched "which artery ... bleeds fastest"
    (
        "preparation",
        r"\b(?:needs?|has) to look like (?:my heart (?:stopped|gave up|failed)|a heart attack|an accident|natural "
        r"causes|a natural death)\b(?!\s+(?:report|claim|form|case|certificate|record))"
        r"|\b(?:want|need) (?:it|the wound|the cut|them) to get (?:properly |really |badly )?infected\b[^.?!]{0,60}"
        r"\b(?:not|never) (?:come back|recover|wake up)\b"
        r"|\b(?:died|passed away|was killed|lost (?:my|our) (?:son|daughter|child|baby|wife|husband))\b[^?]{0,400}"
        r"\b(?:after (?:that|this|it|the \w+)|then|soon|tonight|finally),?\s+(?:i will|i'll|i shall|i am going to|"
        r"i'm going to) (?:go|come) to (?:him|her|them)(?=\s*(?:[,.;!]|$)|\s+(?:forever|for good|at last)\b)"
        r"|\bi know exactly (?:where and how|how and where|how and when|when and how)(?=\s*(?:[,.;!]|$))",
    ),
    (
        "means",
        r"\b(?:breathing|breath|heart)\b[^.?!]{0,40}\b(?:doesn'?t|does not|won'?t|will not|never) (?:starts?|comes? "
        r"back|restarts?|begins?)(?: again)?\b"
        r"|\b(?:i'?ve|i have|ive|i'?m going to|im going to|i will|i'?ll)\s+(?:\w+\s+){0,2}?swallow\w*\s+"
        r"(?:\w+\s+){0,3}?(?:needles|pins|blades|nails|broken glass|glass pieces|razors?)\b"
        r"|\b(?:searched|googled|looked up)\b[^.?!]{0,40}\b(?:which (?:artery|vein)\b[^.?!']{0,40}\bbleeds?|bleeds? "
        r"(?:out )?(?:the )?fastest|"
        r"how long to lose consciousness|lethal dose|painless way to)\b"
        r"|\bdo (?:they|you|people|i) die or (?:only|just) get (?:sick|ill)\b",
    ),
    # and a child who thinks "if im not there they will stop fighting"
    (
        "burden",
        r"\bif i'?m not (?:there|here|around)\b[^.?!]{0,30}\b(?:they|he|she|everyone|mummy|papa)(?:'?ll| will| would)? "
        r"(?:stop fighting|be better off|be free|have peace)\b",
    ),
    # thirteenth round (dev split): a sleeping tablet "kept aside ... every night" since a wife died; "taken a decision
    # to end my journey this week"; "planning to unalive myself"; a flatmate behind a locked door who texted "sorry for
    # the mess u'll find", a colleague who posted "thanks for everything guys" and is "not answering the door"; "if u
    # take like 40 crocin do u just sleep"; "cancel physio pls, wont need it. 2am tonight, society water tank, 9
    # floors"; a backpack to be filled "with stones first" next time
    (
        "preparation",
        # (a count that has grown "enough", not a pill box filled for a parent every morning)
        r"\b(?:kept|keeping|put|putting|set|setting|saved|saving) aside (?:one|a|an|two|half a|\d+) (?:\w+ )?"
        r"(?:tablet|pill|capsule)s? (?:every|each) (?:night|day|evening|morning)\b[^?]{0,100}?\b(?:there (?:are|is) "
        r"enough|(?:i|we) (?:now )?have enough|enough (?:now|saved|of them))\b"
        r"|\b(?:decided|decision|going|want|planning|ready|time) to end (?:my|this) (?:life'?s )?journey\b"
        r"(?!\s+(?:at|in|to|with|by|on|of|here|there)\b)"
        r"|\bunaliv(?:e|ing|ed) (?:myself|meself|me)\b|\b(?:planning|going|want|wanna|gonna|decided|ready) to unalive\b"
        # a farewell said, then out of reach: "posted ... 'thanks for everything guys' ... he's not answering the door"
        r"|\b(?:posted|texted|messaged|wrote|sent|said)\b[^?]{0,40}?['\"]?(?:thanks? (?:you )?for everything|sorry for "
        r"everything|sorry for the mess|goodbye (?:everyone|all|guys)|bye (?:everyone|all|guys))\b[^?]{0,200}?"
        r"\b(?:(?:he|she|they)(?:'s|'re| is| are)? not (?:answering|picking up|opening)|(?:his|her|their|the) door is "
        r"locked|locked (?:himself|herself|themselves) in)\b"
        r"|\b(?:(?:his|her|their) door is locked|locked (?:himself|herself|themselves) in)\b[^?]{0,120}?\b(?:posted|"
        r"texted|messaged|wrote|sent)\b[^?]{0,40}?['\"]?(?:thanks? (?:you )?for everything|sorry for everything|sorry "
        r"for the mess|goodbye|bye (?:everyone|all|guys))\b",
    ),
    (
        "fatal_amount",
        r"\bif (?:u|you|i|someone|somebody|a person|one) (?:take|takes|took|swallow|swallows|swallowed|eat|eats|ate) "
        r"(?:like |about |around |maybe )?(?:[2-9]\d|\d{3}) (?!(?:days?|weeks?|months?|years?|mg|ml|units?|minutes|"
        r"mins?|hours?|hrs?|rs|rupees|times|sessions?)\b)[a-z]+\b[^?]{0,40}\b(?:just sleep|(?:do|would|will) "
        r"(?:u|you|i|they) die|(?:not|never) wake up)\b",
    ),
    (
        "means",
        r"\b(?:won'?t|wont|will not|don'?t|dont) need (?:it|them|this|that)\b[^?]{0,60}?\b(?:tonight|"
        r"\d{1,2} ?(?:am|pm))\b[^?]{0,60}?\b(?:\d+ (?:floors|storeys|stories)|water tank|terrace|rooftop|roof|bridge|"
        r"ledge)\b"
        r"|\b(?:i'?ll|ill|i will|i'?m going to|im going to|gonna)\s+(?:just\s+)?fill (?:my|the) (?:backpack|bag|"
        r"pockets?|jacket|coat|clothes|dupatta) with (?:stones|rocks|bricks|weights)\b",
    ),
    # fourteenth round (dev split): a farewell said, then out of reach, in more words than the thirteenth's: a
    # dispatcher who e-mailed the team "it was nice knowing you all" and is "not answering calls"; a widowed neighbour
    # who handed over her parrot with "ab isko tum rakhna" and "isnt answering the bell", a gas smell under her door.
    # Fifteenth round (dev split): the farewell in a note handed over with three months' rent, "deposit is for my
    # parents, sorry for the trouble", and the tenant "isn't answering her door" (the out-of-reach half is what makes
    # "sorry for the trouble" a farewell). Sixteenth round (dev split): a brother's message relayed from the family
    # group, "His message: 'sorry everyone. tell maa it was never her fault. I'm on the terrace ...'" and "He's not
    # picking up any of our calls" (the message quoted as "his message", the farewell as "sorry everyone" or "never her
    # fault")
    (
        "preparation",
        r"\b(?:posted|texted|messaged|e-?mailed|mailed|wrote|sent|said|told (?:me|us|everyone)|(?:a|the|with a) "
        r"(?:note|letter|chit)|(?:his|her|their) (?:message|msg|text|post|status))\b[^?]{0,80}?['\"]?"
        r"(?:(?:it was |it'?s been )?nice knowing (?:you|u|y'?all|everyone)|thanks? (?:you )?for everything|sorry for "
        r"everything|sorry for (?:the|all the) trouble|sorry (?:everyone|every1|all|guys)|(?:it was|it'?s|it is|was) "
        r"never (?:her|his|your|ur|their|anyone'?s|anybody'?s) fault|goodbye (?:everyone|all|guys)|(?:ab )?(?:isko|ise|"
        r"inko|usko) (?:tum|aap|ap) (?:hi )?rakhna|"
        r"(?:aakhri|akhri) (?:yatra|safar))\b[^?]{0,250}?"
        # (said without a subject only at a clause's start: "... Vashi bridge. Not answering calls.", not "the desk is
        # not answering my calls")
        r"\b(?:(?:he|she|they)(?:'s|'re| is| are)? not (?:answering|picking up|opening)|(?:he|she|they) (?:isn'?t|isnt|"
        r"aren'?t|arent) (?:answering|picking up|opening)|[.!;]\s*not (?:answering|picking up) (?:calls|the phone|"
        r"(?:his|her|their) (?:phone|calls)|the (?:bell|door))|(?:his|her|their|the) door is locked|(?:gas smell|smell "
        r"of gas)\b[^.?!]{0,30}\b(?:door|room|flat))\b",
    ),
    # ... and "already took all of nanas sleeping pills ... dont want to be saved"; strips of sleeping tablets and a
    # letter addressed to his wife in a grandfather's pocket; a maid whose husband's "loans will end with her" and who
    # asked to "'borrow' all my sleeping tablets"
    (
        "want_to_die",
        r"\b(?:don'?t|dont|do not) want (?:anyone |anybody |you |them )?to (?:save|rescue) me\b"
        # (not a card or a contact: "I don't want to be saved as a contact")
        r"|\b(?:don'?t|dont|do not) want to be (?:saved|rescued)\b(?!\s+(?:as|in|on|to|for|under|with)\b)",
    ),
    (
        "preparation",
        # (a letter to family beside a hoard, not one to the insurer)
        r"\b(?:strips?|bottles?|packets?|boxes|stash|lots?) of (?:sleeping|sleep) (?:tablets|pills)\b[^?]{0,80}"
        r"\b(?:letter|note)s? (?:addressed |written )?(?:to|for) (?:my |his |her |their )?(?:dadi|nani|dada|nana|"
        r"mummy|mum|mom|mother|papa|dad|father|wife|husband|son|daughter|kids|children|family|everyone|amma|appa|"
        r"sister|brother)\b"
        r"|\b(?:letter|note)s? (?:addressed |written )?(?:to|for) (?:my |his |her |their )?(?:dadi|nani|dada|nana|"
        r"mummy|mum|mom|mother|papa|dad|father|wife|husband|son|daughter|kids|children|family|everyone|amma|appa|"
        r"sister|brother)\b[^?]{0,80}\b(?:strips?|bottles?|packets?|boxes|stash|lots?) of (?:sleeping|sleep) "
        r"(?:tablets|pills)\b"
        r"|\bborrow'?\s+(?:all|the whole (?:strip|bottle)) (?:of )?(?:my|your|our|her|his|the) (?:sleeping |sleep )?"
        r"(?:tablets|pills)\b|\basked (?:me |us )?for all (?:my|our|the) sleeping (?:tablets|pills)\b",
    ),
    (
        "burden",
        r"\b(?:loans?|debts?|karz|karza|qarz|emis?)\b[^.?!]{0,30}\bwill (?:end|die|finish|be over) with (?:me|her|him|"
        r"them)\b(?!\s+\w+ing\b)",
    ),
    # fifteenth round (dev split): a to-do list ticked off before Sunday, "sunday is the day, after that nobody has to
    # keep paying for me" (after a day or "once i'm gone": not "the scholarship came, so nobody has to keep paying for
    # me"); sixty tablets in the car, driving "2 d hills 2nite whr no1 finds me" (a count of tablets first: not a
    # homestay where no one finds me); a feedback form, "don't blame yourself for what happens this weekend" (not for
    # what happened); an electric crematorium paid for Monday and "Sunday night is decided" (not a crematorium paid for
    # someone who has died, with no day decided)
    (
        "burden",
        r"\b(?:after (?:that|this|today|tonight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|once i'?m gone|when i'?m "
        r"gone),?\s+(?:nobody|no one|no-one|noone)\s+(?:has|will have|would have|needs?|will need)\s+to\s+(?:keep\s+)?"
        r"(?:pay|paying|spend|spending)\s+(?:for|on)\s+me\b",
    ),
    (
        "preparation",
        # (SMS shorthand as typed: "whr no1 finds me")
        r"\b(?:got|have|bought|took|taken|kept|with)\s+(?:[2-9]\d|\d{3})\s+(?:[a-z]+\s+)?(?:tablets?|pills?|tabs|"
        r"dolo|crocin|calpol|combiflam)\b[^?]{0,150}\b(?:where|whr|wer)\s+(?:no ?one|no1|nobody|noone|no-one)\s+"
        r"(?:will\s+|wil\s+|can\s+|cn\s+)?(?:finds?|fnds?)\s+me\b"
        r"|\b(?:don'?t|dont|do not|never)\s+blame\s+(?:yourself|yourselves|urself|anyone|anybody|each other)\s+for "
        r"what (?:happens|will happen|is going to happen|i'?m going to do|i am going to do|i'?m about to do)\b"
        r"|\b(?:paid|booked|prepaid|paid for|reserved)\s+(?:the\s+|an?\s+)?(?:\w+\s+){0,2}?(?:crematorium|cremation|"
        r"shamshan|burial ground)\b[^?]{0,150}?\b(?:tonight|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
        r"(?: night| morning| evening)? is (?:decided|fixed|final)\b",
    ),
    # ... and all of them taken on a night named: baclofen and tramadol put aside since Diwali, "Monday night after
    # everyone is asleep I'm taking all of them"; "On Sunday after the evening aarti I will take all of my wife's old
    # Calmpose tablets" (not taken to the pharmacy, as prescribed or after meals: "from Monday I'm taking all of my
    # tablets as prescribed"; "them" only after tablets are named)
    (
        "overdose_intent",
        r"\b(?:tonight|tomorrow(?: night)?|(?:mon|tues|wednes|thurs|fri|satur|sun)day(?: night| evening| morning)?)\b"
        r"[^.?!]{0,60}?\b(?:i will|i'?ll|i'?m going to|i am going to|i'?m|im|i am)\s+(?:take|taking|swallow|"
        r"swallowing)\s+all (?:of )?(?:(?:the|my|her|his|their) )?(?:\w+'s )?(?:[\w-]+ ){0,2}?(?:tablets|pills|"
        r"capsules|medicines|meds)\b" + _NOT_AS_DOSED +
        r"|\b(?:tablets|pills|capsules)\b[^?]{0,300}?\b(?:tonight|tomorrow(?: night)?|(?:mon|tues|wednes|thurs|fri|"
        r"satur|sun)day(?: night| evening| morning)?)\b[^.?!]{0,60}?\b(?:i will|i'?ll|i'?m going to|i am going to|i'?m|"
        r"im|i am)\s+(?:take|taking|swallow|swallowing)\s+all of them\b" + _NOT_AS_DOSED,
    ),
    # sixteenth round (dev split): a reply "N" to a reminder, "taking the night train to goa ... and walking into the
    # sea after dark" (after dark, at night or not to come back: not a paddle at the beach); an organ-donor form wanted
    # by Friday "because I won't be around after Sunday, I've decided and made peace with it" (the writer, a day named,
    # nothing saying a journey or a move: not the doctor who won't be around after Friday, not a transfer); a railway
    # line near the house, "I'm going there tonight after everyone sleeps" (a place of means, then going there once
    # everyone is asleep); a song, "that's the song I want playing when they find me", on the roof of a 14-floor tower
    # "before I go over the edge" (the scene one wishes for when found; the edge after a roof or a height named)
    (
        "means",
        # (seventeenth round, dev split: a mother, "after the 2 am feed I'm going to walk down to the creek and not come
        # back": down or out to the water as well as into it, a creek, a canal or a dam)
        r"\b(?:walk|walking|wade|wading|swim|swimming|go|going)\s+(?:out\s+)?into\s+the\s+(?:sea|ocean|river|lake|"
        r"waves|creek|canal)\s+(?:after dark|at night|tonight|in the dark|and (?:not|never) (?:come|coming) back|"
        r"(?:till|until) (?:i|it|the water))\b"
        r"|\b(?:walk|walking|wade|wading|swim|swimming|go|going|head|heading)\s+(?:(?:out|down|off)\s+)?to\s+the\s+"
        r"(?:sea|ocean|river|lake|creek|canal|dam|stream|cliff|bridge|tracks)\s+and\s+(?:not|never)\s+(?:come|coming)"
        r"\s+"
        r"back\b"
        r"|\b(?:railway (?:line|track)s?|rail(?:way)? tracks?|train tracks?|bridge|river|canal|lake|dam|cliff|sea|roof|"
        r"rooftop|terrace|well|flyover)\b[^?]{0,100}?\b(?:i'?m|im|i am|i will|i'?ll)\s+(?:going|gonna go|going to go|"
        r"go|walking)\s+(?:there|up there|out there)\s+(?:tonight\s+|today\s+)?(?:after|once|when)\s+(?:everyone|"
        r"everybody|they all|the (?:family|house)|my (?:wife|husband|family|parents|kids|children))\s+(?:sleeps|is "
        r"asleep|are asleep|goes to sleep|go to sleep|has slept|falls asleep|fall asleep|is sleeping|are sleeping)\b"
        r"|\b(?:roof|rooftop|terrace|ledge|parapet|balcony|\d+ (?:floors|storeys|stories))\b[^?]{0,150}?\bbefore i "
        r"(?:go|step|jump|fall|throw myself) (?:over|off) (?:the )?(?:edge|ledge|side|railing|parapet)\b",
    ),
    (
        "preparation",
        r"\bi\s+(?:won'?t|wont|will not)\s+be\s+(?:around|here|alive)\s+after\s+(?:this\s+|next\s+)?(?:(?:mon|tues|"
        r"wednes|thurs|fri|satur|sun)day|tonight|today|tomorrow|the weekend|this week)\b"
        r"(?![^.?!]{0,60}\b(?:travel\w*|trip|holiday|vacation|abroad|out of town|on leave|leave|business|reschedul\w*|"
        r"moving|relocat\w+|shifting|transfer\w*|posting|posted|joining|exams?|hostel|college|job|office|duty|shift|"
        r"flight|train|visa)\b)"
        r"|\b(?:i'?ve|i have|ive)\s+decided,?\s+and\s+(?:i'?ve\s+|i have\s+)?made (?:my )?peace with (?:it|that|this)\b"
        r"|\b(?:want|like|wish|need)\b[^.?!]{0,40}\bwhen (?:they|someone|somebody|people|you|my \w+) finds? me\s*"
        r"(?:[.,;!]|$)",
    ),
    # a dev miss of the sixth round the probe refitted at the sixteenth no longer catches: a mother three weeks after a
    # delivery, "at 4am i found her standing at the terrace wall holding the baby" (someone found standing at a terrace
    # or roof's wall, edge or parapet; not a child playing there with a kite)
    (
        "means",
        r"\b(?:found|saw|caught|find|see)\s+(?:her|him|them|my \w+)\s+(?:standing|sitting|climbing)\s+(?:at|on|over)\s+"
        r"(?:the\s+)?(?:terrace|roof|rooftop)\s+(?:wall|edge|ledge|railing|parapet)\b"
        r"(?![^.?!]{0,40}\b(?:playing|kite|kites|ball|toy|phone|photos?|selfie)\b)",
    ),
    # seventeenth round (dev split): belongings given away, "after sat i wont need anything from anyone ever again",
    # a neighbour's bangles handed over, "she won't need the bangles where she's going" (anything needed from anyone
    # ever again; a thing not needed where one is going, with no journey or move after it); an emergency contact
    # changed so the wife isn't "the one who gets the call to come and identify me after Sunday" (identifying the
    # writer's body; not being identified at a counter); affairs put in order, "There won't be a me around to use it"
    # (there won't be a me; the writer not around to use, need or see a thing, with no journey after it)
    (
        "preparation",
        r"\b(?:i|she|he|they)\s+(?:won'?t|wont|will not|will never|wouldn'?t|would not)\s+(?:need|be needing)\s+"
        r"(?:anything|any of (?:it|this|them|these))\s+(?:(?:from|off) (?:anyone|anybody|you|u|no one|nobody)\s+)?"
        r"(?:ever again|again, ever)\b"
        r"|\b(?:i|she|he|they)\s+(?:won'?t|wont|will not|wouldn'?t|would not)\s+(?:need|be needing)\s+(?:it|them|this|"
        r"that|these|those|any of (?:it|this|them)|(?:the|my|her|his|their) \w+)\s+where (?:i'?m|im|i am|she'?s|she is|"
        r"he'?s|he is|they'?re|they are) going\b(?![^.?!]{0,60}\b(?:abroad|trip|tour|holiday|vacation|moving|move|"
        r"relocat\w+|shifting|hot|warm|cold|snow|winter|summer|beach|hills?|hostel|college|job|office|flight|visa|"
        r"country|city)\b)"
        r"|\bidentify my (?:dead )?body\b"
        r"|\b(?:come|comes|coming|gets? the call|get a call|called|call|calls)\b[^.?!]{0,30}\bto (?:come and |come & |"
        r"come n )?"
        r"identify me\b(?![^.?!]{0,30}\b(?:at|for|with|using|by|on|in)\b)"
        r"|\bthere (?:won'?t|wont|will not) be (?:a|any) me\b"
        r"|\bi\s+(?:won'?t|wont|will not)\s+be\s+(?:around|here|alive)\s+to\s+(?:use|need|see|pay for|enjoy|read|"
        r"collect|attend|open)\b(?![^.?!]{0,60}\b(?:travel\w*|trip|holiday|vacation|abroad|out of town|on leave|leave|"
        r"business|moving|relocat\w+|shifting|transfer\w*|posting|posted|joining|exams?|hostel|college|job|office|duty|"
        r"shift|flight|train|visa)\b)",
    ),
    # ... pain medicines saved up and a bottle of vodka, "planning to take the whole lot together tnite" (the whole
    # lot, strip or bottle, tonight or at once; not a whole strip taken home); a daughter's
    # searches read by a parent, "'how many paracetamol to die'" (how many of a thing to die, to kill oneself or not to
    # wake up; not "how many days to die down")
    (
        "preparation",
        r"\b(?:planning|plan|planned|going|gonna|want|wanna|decided|about)\s+(?:to\s+)?(?:take|swallow|down|drink|have)"
        r"\s+(?:the\s+)?(?:whole (?:lot|strip|bottle|pack|packet|box|sheet)|lot)\s+(?:together\s+|at once\s+|in one go"
        r"\s+)?"
        r"(?:tonight|tnite|2nite|2night|tonite|this evening|at once|in one go|together)\b" + _NOT_AS_DOSED
        + r"|\bhow (?:many|much)\s+(?:[\w-]+\s+){0,3}?(?:to die\b(?!\s+(?:down|out|off|away|for|of|from))|to kill (?:m"
        r"yself|yourself|herself|himself|me|u|you|"
        r"urself)|to end (?:it|my life|your life|ur life)|to not wake up|would kill (?:me|you|u|a person|someone))\b",
    ),
    # eighteenth round (dev split): a cat rehomed for good, a repeat prescription cancelled, "By the weekend there
    # won't be anyone here to collect it" (by or after a day there won't be anyone here or left to collect, use or need
    # a thing, with no journey, move or holiday after it; not "there won't be anyone home on Saturday to take the
    # delivery"); the rooftop cafe asked after, "I've been checking which buildings in town are high enough" (which
    # buildings, bridges or floors are high enough, looked up; not high enough to see the fireworks); a level crossing
    # and "I've looked up when the fast trains go through without stopping" (when the fast trains pass without
    # stopping, looked up or timed)
    (
        "preparation",
        r"\b(?:by|after|from)\s+(?:this\s+|next\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tonight|tomorrow|the "
        r"weekend|the end of (?:the|this) (?:week|month)|next week)\b,?\s+there\s+(?:(?:won'?t|wont|will not)\s+be\s+"
        r"(?:anyone|anybody)|(?:will|'ll)\s+be\s+(?:no ?one|no-one|nobody))\s+(?:here\s+|left\s+|around\s+|home\s+|"
        r"at home\s+|in the (?:flat|house)\s+)?to\s+(?:collect|use|need|take|pick|answer|receive|open)\b" + _NOT_AWAY_EN
        + r"|\b(?:checking|checked|looking|looked|searching|searched|finding|found|working|worked|figuring|figured)\s+"
        r"(?:up\s+|out\s+)?(?:for\s+)?(?:which|what|a|the)\s+(?:\w+\s+)?(?:buildings?|bridges?|roofs?|rooftops?|"
        r"floors?|towers?|flyovers?|blocks?|car ?parks?|multi-?storeys?)\b[^.?!]{0,30}?\b(?:is|are|was|were)\s+"
        r"(?:high|tall) enough\b(?![^.?!]{0,30}\b(?:see|view|views|watch|fireworks|photos?|signal|reception|"
        r"antenna|aerial|wi-?fi|network|mast|crane|lift|lorry|truck|ambulance|helicopter|flood\w*)\b)"
        r"|\b(?:looked up|checked|found out|timed|know|worked out|noted)\s+when\s+the\s+(?:fast|express|non-?stop|"
        r"through|goods)\s+trains?\s+(?:go|goes|pass|passes|come|comes|run|runs|rush|rushes)\s+(?:through\s+|past\s+|"
        r"by\s+)?without stopping\b",
    ),
    # ... Dr Haines booked on a Friday, "It will be the last appointment I'll ever need. I just want to thank her in
    # person before I go through with it that night" (said as certain: it will be the last appointment, visit or
    # prescription the writer will ever need, with nothing after it saying for what; going through with it tonight or
    # that night; not "hopefully the last appointment I'll ever need for this knee"); the clinic asked to ring a mother
    # on Sunday, "I want someone kind to tell her it wasn't her fault" (someone asked to tell her, him or them it was
    # not their fault, the sentence ending there; not that the late payment wasn't her fault)
    (
        "preparation",
        r"\b(?:it|this|that|friday'?s|it'?s|this'?s|that'?s)\s+(?:will|'?ll|is going to|is gonna)?\s*(?:be\s+)?"
        r"(?:the\s+)?(?:very\s+)?last\s+(?:appointment|visit|prescription|refill|consultation|session|check-?up|slot|booking)\s+"
        r"(?:i'?ll|i will|i'?m going to|i'?m gonna)\s+ever\s+(?:need|have|book|make|want|attend)\b(?!\s+(?:for|with|"
        r"about|on|at|in)\b)"
        r"|\bbefore\s+i\s+(?:go|carry|follow)\s+through\s+with\s+it\s+(?:tonight|that night|tomorrow night|on "
        r"(?:\w+day)(?: night)?|this weekend|at night|later tonight)\b"
        r"|\b(?:someone|somebody|anyone|you|u)\b[^.?!]{0,30}?\btell\s+(?:her|him|them|my (?:mum|mom|mother|dad|father|"
        r"wife|husband|partner|sister|brother|son|daughter|kids|children|family|parents))\s+(?:that\s+)?it\s+(?:wasn'?t|"
        r"was not|isn'?t|is not|was never)\s+(?:her|his|their|your)\s+fault\s*(?:[.!]|$)",
    ),
    # ... relayed by a flatmate, "locked in his room since this morning. He left his bank cards and a note saying
    # 'sorry about the rent' ... texted me 'look after Milo for me'. ... he isn't answering the door or his phone"
    # (someone locked in, with a note or a text left, then not answering; cards, keys or a wallet left, then a note or
    # a text asking to look after a pet or a person "for me"; not keys left with a neighbour and a parcel)
    (
        "preparation",
        r"\blocked (?:himself |herself |themselves |themself )?in(?:side)? (?:his|her|their|the) (?:room|bathroom|"
        r"toilet|flat|house|car)\b[^?]{0,300}?\b(?:a note|notes?|texted|messaged|wrote|letter|whatsapp(?:ed)?)\b"
        r"[^?]{0,300}?\b(?:isn'?t|is not|not|won'?t|wont|hasn'?t|has not|doesn'?t|does not|stopped)\s+(?:been\s+)?"
        r"(?:answering|responding|opening|picking up|replying|answered|responded|opened|replied)\b"
        r"|\bleft\s+(?:his|her|their|my)\s+(?:bank\s+)?(?:cards|keys|wallet|phone|passwords?)\b[^?]{0,200}?\b(?:saying|"
        r"said|says|texted|messaged|wrote|writes|note)\b[^.?!]{0,30}?\blook after (?:\w+ ){0,2}for (?:me|him|her|them)"
        r"\b",
    ),
    # nineteenth round (dev split): a dog's worming records sent to a sister "She'll be feeding him from now on. After
    # this weekend it won't matter what happens to me" (it will not matter what happens to the writer; or, by or after
    # a day, it or nothing will matter any more); reminder texts stopped, "After this weekend nobody needs to chase me
    # for anything" (by or after a day, nobody will need to chase, remind or look for the writer); netflix, the gym and
    # the phone contract cancelled and the plants given to next door (things cancelled, then belongings given away,
    # with no move or journey after it), and the patient portal to close "before Sunday, then that's everything done"
    (
        "preparation",
        r"\b(?:it|nothing)\s+(?:won'?t|wont|will not|isn'?t going to|is not going to)\s+matter\s+(?:any ?more\s+)?"
        r"what happens to me\b"
        r"|\b(?:after|by|from)\s+(?:this\s+|next\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tonight|tomorrow|"
        r"the weekend|weekend|next week)\b,?\s+(?:(?:it|nothing|none of (?:it|this))\s+(?:won'?t|wont|will not)|"
        r"nothing\s+(?:will|'ll))\s+matter"
        r"(?:\s+any ?more|\s+to me)?\s*(?:[.!,]|$)"
        r"|\b(?:after|by|from)\s+(?:this\s+|next\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tonight|tomorrow|"
        r"the weekend|weekend|next week)\b,?\s+(?:nobody|no ?one|no-one)\s+(?:needs|will need|has|will have|'?ll need|"
        r"'?ll have)\s+to\s+(?:chase|remind|contact|ring|call|text|look for|check on|worry about)\s+me\b" + _NOT_AWAY_EN
        + r"|\bcancel+ed\b[^?]{0,80}?\b(?:netflix|spotify|gym|phone contract|contract|subscriptions?|membership|"
        r"direct debits?|standing orders?)\b[^?]{0,80}?\b(?:given|gave|giving)\s+(?:away\s+)?(?:all\s+)?(?:of\s+)?"
        r"(?:my|the)\s+(?:\w+\s+)?(?:plants|pets?|cat|dog|things|stuff|belongings|clothes|books|records|games|"
        r"jewellery|jewelry)\b" + _NOT_AWAY_EN
        + r"|\bclose (?:my|the) (?:[\w-]+ ){0,3}?account\b[^?]{0,60}?\bbefore (?:\w+day|tonight|tomorrow|the weekend)\b"
        r"[^?]{0,40}?\bthen (?:that'?s|thats|that is|it'?s|i'?m) (?:everything|all) (?:done|sorted|finished|wrapped up|"
        r"tied up)\b",
    ),
    # ... the lethal amount of paracetamol for 60 kg "Asking so I know how many I need to save up" (so the writer knows
    # how many they need to save up, stockpile or take together; not how many to take each day, nor for a trip);
    # "been thinking abt ctb for weeks now, i have a method and a date picked" (thinking of or planning "ctb"; a method
    # and a date or a day picked, chosen or set)
    (
        "preparation",
        r"\bso (?:that )?i (?:know|can work out|can figure out) how many (?:i(?:'d| would| will)? need|to)\s+(?:to\s+)?"
        r"(?:save(?: up)?|stockpile|collect|hoard|keep back|put aside|set aside|get together|take (?:at once|together|"
        r"all at once|in one go))\b"
        r"|\b(?:thinking|think|thought|planning|plan|want|wanna|going|gonna|ready|decided)\s+(?:abt|about|of|on|to)?\s*"
        r"ctb\b"
        r"|\b(?:have|got|picked|chosen|chose|decided on|settled on|set)\s+(?:a|the|my)\s+method\s+and\s+(?:a|the)\s+"
        r"(?:date|day|time)\b|\b(?:have|got|picked|chosen|chose|set)\s+(?:a|the)\s+(?:date|day)\s+and\s+(?:a|the)\s+"
        r"method\b",
    ),
    # ... relayed by a form tutor, a Year 9 boy who "handed in a drawing of himself hanging with 'soon' written under
    # it" (a drawing, a picture or a story of oneself hanging, hanged, dead or with a noose); by a colleague who has
    # "been saving her late dad's morphine" and "won't be in on monday, or ever" (a late or dead relative's strong
    # medicine saved or stockpiled, with nothing after it about returning or disposing of it; not in on a day "or
    # ever"); bills paid "and the hose for the car exhaust is in the boot" (a hose or tubing for a car's exhaust)
    (
        "preparation",
        r"\b(?:drawing|drew|drawn|picture|sketch|doodle|painting|painted|story|poem|wrote|written)\s+(?:\w+\s+)?(?:of|"
        r"about)?\s*(?:himself|herself|themselves|themself|myself)\s+(?:hanging|hanged|with a noose|dead|in a coffin|"
        r"on a rope|from a (?:tree|beam|rope))\b"
        r"|\b(?:saving|saved|stockpiling|stockpiled|hoarding|hoarded|stashing|stashed)\s+(?:up\s+)?(?:her|his|their|my)\s+"
        r"(?:late|dead|deceased)\s+(?:\w+'s\s+|\w+s'\s+)?(?:morphine|oxycodone|oxycontin|codeine|tramadol|fentanyl|"
        r"insulin|tablets|pills|meds|medication|medicines|painkillers|sleeping (?:tablets|pills)|patches)\b"
        r"(?![^.?!]{0,80}\b(?:return|returning|dispos\w*|hand (?:it|them) in|take (?:it|them) back|pharmacy|chemist|"
        r"bring (?:it|them) back)\b)"
        r"|\b(?:won'?t|wont|will not)\s+be\s+(?:in|here|around|back|at work|at school)\s+(?:on\s+)?(?:\w+day|tomorrow|"
        r"next week)\s*,?\s*(?:or|and not)\s+(?:ever|ever again)\b"
        r"|\b(?:hose|hosepipe|tubing|hose ?pipe)\s+(?:for|to fit|on|onto|into|from|to)\s+(?:the|my|his|her)\s+"
        r"(?:car'?s?\s+)?exhaust\b|\bexhaust\s+(?:hose|tubing)\b",
    ),
    # twentieth round (dev split): "I'm 84 and I've had enough. I stopped eating and drinking on purpose on Monday"
    # (eating and drinking, or food and fluids, stopped or refused on purpose, deliberately or for good; not nil by
    # mouth before an operation, which says no purpose); emails "to send themselves at 6am on Saturday. By the time they
    # read them it'll all be over" (by the time someone reads, sees or finds them, it will all be over or the writer
    # gone; not an operation or an exam that will be over); a disposable barbecue "and some tape for the gaps round the
    # bedroom door" (a barbecue or charcoal, and the gaps, a door, a window or a vent taped or sealed, either order)
    (
        "preparation",
        r"\b(?:stopped|stopping|stop|given up|giving up|gave up|refused|refusing|refuse)\s+(?:all\s+)?(?:eating and "
        r"drinking|food and (?:drink|water|fluids?)|food and drink|all food and (?:water|"
        r"fluids?))\b[^.?!]{0,30}?\b(?:on purpose|deliberately|intentionally|for good|by choice)\b|\bby the time "
        r"(?:they|you|anyone|anybody|she|he|my \w+|people)\s+(?:read|reads|see|sees|get|gets|find|finds|open|opens|"
        r"receive|receives)\s+(?:them|it|this|these|the \w+)\s*,?\s+(?:it'?ll|it will|it'?s|it is|everything(?:'ll| "
        r"will)?|i'?ll|i will|i'?d|i would)\s+(?:all\s+)?(?:be\s+)?(?:all\s+)?(?:over|gone|dead|finished|done|too "
        r"late)\b(?![^.?!]{0,40}\b(?:op|operation|surgery|procedure|exam|exams|test|scan|sale|"
        r"holiday|trip|flight|move|party|wedding)\b)" + _NOT_AWAY_EN
        + r"|\b(?:disposable\s+)?(?:barbecues?|bbqs?|charcoal)\b[^?]{0,120}?\b(?:tape|taped|taping|seal|sealed|sealing|"
        r"block|blocked)\s+(?:up\s+)?(?:\w+\s+){0,3}?(?:the\s+)?(?:gaps?|doors?|windows?|vents?|cracks?)\b|\b(?:tape|"
        r"taped|taping|seal|sealed|sealing)\s+(?:up\s+)?(?:\w+\s+){0,3}?(?:the\s+)?(?:gaps?|doors?|"
        r"windows?|vents?|cracks?)\b[^?]{0,120}?\b(?:disposable\s+)?(?:barbecues?|bbqs?|charcoal)\b",
    ),
    # ... relayed by a football coach, a lad's text "thanks for everything coach, tell the boys i'm sorry" and "his
    # phone's off now and his mum says he went out towards the viaduct" (thanks for everything, then someone to be told
    # sorry, love or goodbye; a phone off, then gone towards a viaduct, a bridge, cliffs, the railway or a river); a
    # grandson asking "whether breathing helium is painless", "a balloon kit and a plastic hood" come in the post
    # (breathing a gas asked as painless; helium or a balloon kit beside a hood or a bag, either order; not a party's
    # balloons)
    (
        "preparation",
        r"\bthank(?:s| you) for everything\b[^.?!]{0,40}?\btell\s+(?:\w+\s+){1,3}?(?:i'?m sorry|im sorry|i am sorry|"
        r"sorry|i love (?:them|him|her|you)|goodbye|bye)\b|\bphone(?:'s|s| is| has| was| "
        r"went)?(?:\s+been)?\s+(?:switched\s+|turned\s+)?(?:off|dead|going to voicemail)\b[^?]{0,100}?\b(?:went|gone|"
        r"headed|heading|walked|walking|ran|run)\s+(?:out\s+|off\s+)?(?:towards|toward|to|down to|up "
        r"to)\s+(?:the\s+)?(?:viaduct|bridge|cliffs?|railway|tracks|train tracks|river|quarry|multi-storey|reservoir|"
        r"motorway bridge|flyover)\b(?!\s+(?:club|street|road|surgery|practice|clinic|medical|pharmacy|house|view|"
        r"centre|center|school|cafe|inn|hotel))",
    ),
    (
        "means",
        r"\b(?:breathing|inhaling|breathe|inhale|breathing in|inhaling)\s+(?:in\s+)?(?:helium|nitrogen|gas|fumes|"
        r"carbon monoxide|exhaust fumes)\s+(?:is|would be|was|really is)\s+(?:painless|peaceful|quick)\b|\b(?:helium|"
        r"balloon (?:kit|tank|canister|gas)|nitrogen)\b[^?]{0,120}?\b(?:plastic hood|hood|plastic bag|bag over|exit "
        r"bag)\b|\b(?:plastic hood|exit bag|plastic bag over)\b[^?]{0,120}?\b(?:helium|balloon (?:kit|tank|canister|"
        r"gas)|"
        r"nitrogen)\b",
    ),
    # ... "I tried last night with the dog's lead over the loft hatch and it snapped. I've bought a proper one today"
    # (a lead, a rope, a belt or a cord over or from a loft hatch, banister, beam, door or tree, then it snapped or
    # broke or a proper or stronger one bought; not a swing's rope); a new mother sure the baby "would be better off
    # with my sister raising her", "tonight when they're asleep i'm going to walk into the river" (a child better off
    # raised by someone else; going to walk into a river, the sea or a lake, the sentence ending there or a time of
    # night before it; not a charity swim)
    (
        "means",
        r"\b(?:lead|leash|rope|belt|cord|cable|scarf|flex|tie)\s+(?:over|from|round|around|tied to|on)\s+(?:the|a|"
        r"my)\s+(?:loft hatch|hatch|banisters?|bannisters?|beam|rafters?|door ?frame|top of the door|stair ?rail|"
        r"curtain rail|loft|tree|branch)\b(?![^.?!]{0,60}\b(?:swing|hammock|washing|tyre|tire|zip "
        r"?line)\b)[^?]{0,80}?\b(?:snapped|broke|gave way|didn'?t hold|did not hold|(?:a )?(?:proper|stronger|thicker|"
        r"better) one)\b|\b(?:she|he|they|the baby|my baby|the kids|my (?:son|daughter|kids|children|boy|girl))(?:'d| "
        r"would| will|'ll)\s+be\s+better\s+off\s+(?:with\s+(?:my|her|his|their|a|the)\s+\w+\s+(?:raising|bringing up|"
        r"looking after)\s+(?:her|him|them)|(?:being\s+)?raised\s+by\s+(?:my|her|his|their|someone|somebody)\b)|"
        r"\b(?:i'?m|im|i am)\s+(?:going to|gonna)\s+(?:walk|wade|swim|go)\s+(?:out\s+)?into\s+the\s+(?:river|sea|ocean|"
        r"lake|waves|creek|canal|reservoir|loch|water)\s*(?:[.!]|$)|\b(?:tonight|after dark|when (?:they|everyone|"
        r"everybody)(?:'re| are) asleep)\b[^.?!]{0,40}?\b(?:i'?m|im|i am|i'?ll|i will)\s+(?:going to\s+|"
        r"gonna\s+)?(?:walk|wade|swim|go)\s+(?:out\s+)?into\s+the\s+(?:river|sea|"
        r"ocean|lake|waves|creek|canal|reservoir|loch)\b",
    ),
    # ... "how long does it usually take before anyone notices? i'd rather the surgery rang my son than the landlord
    # being the one to find me" (how long before anyone notices or finds someone who lives alone; someone "being the
    # one to find me", not to find the writer a flat); "i've already picked the tree and the time" (a tree, a bridge,
    # a rope or a method picked with a time, a date or a place, either order: the nineteenth round's "method and a
    # date" widened; not a date and a time for a party)
    (
        "preparation",
        r"\b(?:lives?|living)\s+(?:on (?:their|his|her|my) own|alone|by (?:themselves|himself|herself|"
        r"myself))\b[^?]{0,80}?\bhow long\b[^?]{0,40}?\bbefore (?:anyone|anybody|someone|somebody|people|they|the "
        r"neighbours?)\s+"
        r"(?:notices?|would notice|finds?|would find|realises|realizes)\b" + _NOTICED_SOMEONE
        + r"|\bhow long\b[^?]{0,40}?\bbefore (?:anyone|anybody|someone|somebody|people|they|the "
        r"neighbours?)\s+(?:notices?|"
        r"would notice|finds?|would find)\b" + _NOTICED_SOMEONE + r"[^?]{0,40}?\b(?:lives?|living)\s+(?:on (?:their|"
        r"his|her|my) own|alone)\b|\b(?:be|being|is|was)\s+the\s+(?:one|ones|person|first)\s+(?:to|who)\s+(?:finds?|"
        r"found)\s+(?:me|my body)\b(?!\s+(?:a|an|the|some|another|somewhere|work)\b)|\b(?:picked|chosen|chose|decided "
        r"on|settled on)\s+(?:a|the|my)\s+(?:tree|bridge|rope|method|cliff)\s+and\s+(?:a|the)\s+(?:time|date|day|night|"
        r"place|spot)\b|\b(?:picked|chosen|chose|decided on|settled on|set)\s+(?:a|the)\s+(?:time|date|day|"
        r"night)\s+and\s+(?:a|the)\s+"
        r"(?:tree|bridge|rope|method)\b",
    ),
    # ... a message for the doctor, "thank you for trying, none of this was her fault. I won't be needing Tuesday's
    # session or any after it" (none of this the doctor's or anyone's fault after thanks for trying; no session or
    # appointment needed "or any after it" with no discharge, move or other clinic after it); "I've recorded a video for
    # each of my kids' future birthdays because I won't be there for them" and "can you cancel my mammogram next month,
    # there's no point" (videos, letters or cards for the children's future birthdays; an appointment or a screening
    # cancelled "there's no point", the sentence ending there)
    (
        "preparation",
        r"\bthank(?:s| you) for trying\b(?!\s+to\b)[^?]{0,60}?\bnone of (?:this|it) (?:was|is) (?:her|his|your|their|"
        r"anyone'?s|anybody'?s) fault\b|\b(?:won'?t|wont|will not)\s+be\s+needing\s+(?:\w+'?s?\s+){0,2}(?:session|"
        r"appointment|sessions|appointments|therapy|counselling|counseling)\s+or\s+any\s+(?:after (?:it|that|this)|"
        r"more|others?|again|after)\b(?![^.?!]{0,60}\b(?:discharg\w*|moving|moved|private\w*|better|finished|another|"
        r"elsewhere|new (?:gp|clinic|"
        r"therapist|counsell?or)|other (?:clinic|practice|surgery))\b)" + _NOT_AWAY_EN
        + r"|\b(?:recorded|made|filmed|written|wrote|left)\s+(?:a\s+)?(?:videos?|messages?|letters?|cards?|"
        r"recordings?)\s+for\s+(?:each\s+of\s+|all\s+of\s+)?(?:my|the|our)\s+(?:kids|children|son|daughter|"
        r"grandchildren|boys|girls)(?:'s|s')?\s+(?:future|coming|next \w+|18th|21st)\s+birthdays?\b|"
        r"\bcancel\b[^.?!]{0,60}?\b(?:mammogram|screening|smear(?: test)?|scan|check-?up|appointment|blood test|bloods|"
        r"review|follow-?up|jab)\b[^.?!]{0,20}?,?\s*(?:there'?s|there is|theres)\s+no\s+point(?:\s+any ?more|"
        r"\s+now|\s+in it)?\s*(?:[.!]|$)",
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    (
        "chest_pain",
        r"\b(?:having|have|has|got|getting|feel|feeling|experiencing|sudden|severe|crushing|sharp|bad|terrible)\s+"
        r"(?:a\s+|some\s+)?(?:(?:severe|sharp|crushing|bad|sudden|terrible|strong|tight)\s+)?chest (?:pains?|"
        r"tightness|pressure)\b",
    ),
    (
        "chest_pain",
        r"\bchest (?:pains?|tightness|pressure)\s+(?:right\s+)?now\b|\bmy chest (?:hurts|is (?:tight|hurting|"
        r"crushing|heavy)|feels (?:tight|heavy|crushed))"
        r"|\b(?:pain|pressure|tightness) in (?:my|his|her) chest\b.{0,40}\b(?:now|spreading|arm|jaw)\b",
    ),
    # a weight on the chest with the body's alarm signs: "sweating buckets, says there's a heavy weight on
    # his chest and he's gone all grey"
    (
        "chest_pain",
        r"\b(?:weight|heaviness|pressure|squeezing|tightness|pain)\s+(?:on|in)\s+"
        r"(?:the (?:middle|centre|center) of\s+)?(?:(?:my|his|her|their|the)\s+)?chest\b"
        r"(?=[^?]{0,80}\b(?:sweat\w*|grey|gray|pale|clammy|breathless|out of breath|vomit\w*|faint\w*|arm|jaw)\b)"
        r"|\b(?:sweat\w*|grey|gray|pale|clammy|breathless)\b[^?]{0,80}\b(?:weight|heaviness|pressure|squeezing|"
        r"tightness|pain)\s+(?:on|in)\s+(?:my|his|her|their)\s+chest\b",
    ),
    (
        "breathing",
        r"\b(?:can't|cannot|can not|couldn't|unable to|struggling to|hard to|trouble|difficulty|difficult to|"
        r"barely)\s+"
        r"(?:breathe|breathing|catch (?:my|his|her|their) breath)\b|\b(?:not|stopped|isn't) breathing\b|"
        r"\bgasping for (?:air|breath)\b"
        r"|\b(?:is|am|i'm|he's|she's) choking\b(?!\s+on\s+(?:the\s+|all\s+(?:the\s+|this\s+)?|this\s+)?(?:paperwork|"
        r"forms?|bills?|work|emails?|admin|deadlines|files|red tape))|\b(?:turned|turning|gone|going) blue\b",
    ),
    (
        "heart_attack_stroke",
        r"\b(?:having|had|is having|having had|think i'm having|might be having)\s+a\s+(?:heart attack|stroke|"
        # a fit that is over by the time of writing ("had a fit this morning ... should I give him 1000 tonight?")
        r"seizure|fit)\b(?!\s+(?:this morning|yesterday|last night|earlier today|in the night))"
        r"|\bface (?:is )?drooping\b|\bcan't move (?:the |his |her |my )?(?:right|left|one) side\b|"
        r"\bslurred speech\b|\b(?:one side|half) of (?:my|his|her) (?:face|body)\b",
    ),
    # present tense only: "I passed out at my last blood test" is a question about the next one
    (
        "unconscious",
        # (seventeenth round, dev split, SMS-shortened: "cant wake him even when we shake him")
        r"\b(?:unconscious|unresponsive|won't wake up|will not wake up|(?:can'?t|cant) wake (?:him|her|them|up))\b"
        r"(?!(?:\s+up)?" + _ROUTINE_WAKING + ")"
        r"|\b(?:is|has|just|suddenly|he's|she's)\s+(?:passed out|collapsed)\b"
        r"|\b(?:and|is|isn't|he's|she's)\s+not waking up\b|\bisn't waking up\b"
        # fourth round (dev): "just not answering us, eyes half open, making snoring kind of sounds"
        r"|\bnot (?:answering|responding)\b[^.?!]{0,60}\b(?:eyes (?:half )?(?:open|rolled)|snoring)\b"
        r"|\b(?:baby|infant|newborn|child|toddler|son|daughter|he|she)\b[^.?!]{0,120}\b(?:is|went|gone|looks|"
        r"seems|feels)\s+(?:very\s+|so\s+|really\s+|all\s+)?(?:limp|floppy)\b"
        r"|\b(?:got|had|has had|received|just had)\s+an? (?:bad |strong )?electric(?:al)? shock\b"
        r"|\bgot a (?:bad |strong )?shock\b[^.?!]{0,40}\b(?:geyser|wire|wiring|socket|switch|plug|heater|cooler|"
        r"current|mains|meter)\b"
        # fifth round (dev): a poisoning with drowsiness ("vomiting nonstop and my aunty is very drowsy and not
        # answering properly"); wild mushrooms with vomiting
        r"|\bdrowsy and not (?:answering|responding)\b|\b(?:wild|forest|jungle) mushrooms?\b[^?]{0,80}\bvomit\w*"
        # sixth round (dev): datura seeds eaten; a child shut in a car; a diabetic's low, sweaty, shaky and confused
        r"|\b(?:ate|eaten|swallowed|chewed)\b[^?]{0,300}\b(?:dhatura|datura)\b"
        r"|\b(?:child|kid|baby|son|daughter|\d+ ?(?:yr|year)s? old)\b[^.?!]{0,20}\blocked (?:inside|in) "
        r"(?:the |a |their |our |his |her )?car\b"
        r"|\b(?:sweaty|sweating) and shaky\b[^?]{0,60}\b(?:confused|not answering|drowsy)\b"
        # heat stroke: "collapsed in the afternoon sun, his skin is burning hot and dry"
        r"|\bcollapsed in (?:the )?(?:\w+ )?(?:sun|heat)\b|\bskin (?:is )?(?:burning hot|hot and dry)\b"
        r"|\bheat ?stroke\b(?! (?:cases?|patients?|plan|policy|prevention|season|camps?|awareness|kits?))"
        # "found the aunty next door lying on her bathroom floor ... doesn't answer when i shake her"
        r"|\b(?:doesn't|does not|isn't|is not|won't|will not|not)\s+(?:respond\w*|answer\w*|react\w*)\b[^.?!]{0,30}"
        r"\b(?:shake|shook|shaking|call|calling|tap|tapping|pinch)\b"
        r"|\bfound (?:him|her|them|my \w+|(?:the|our) \w+(?: \w+){0,3}) (?:lying|collapsed|fallen|unconscious)\b",
    ),
    # bleeding that pours; the worst, sudden headache; stroke's signs said plainly; a child working to breathe;
    # a fall that broke the back or the hip
    (
        "bleeding",
        r"\bblood (?:is )?(?:just |still )?(?:pouring|gushing|spurting)\b|\b(?:pouring|gushing|spurting) blood\b",
    ),
    (
        "sudden_headache",
        r"\bworst (?:headache|pain) of (?:my|his|her|their) life\b|\bthunderclap headache\b",
    ),
    (
        "heart_attack_stroke",
        # ("cant" as typed: "today she suddenly cant lift her arms or legs at all", fourteenth round)
        r"\bsudden(?:ly)?\s+(?:\w+\s+){0,2}(?:can'?t|cannot|can not|couldn'?t|unable to) (?:see|speak|talk|move|lift)\b"
        r"|\b(?:leg|arm|foot)\s+(?:is\s+)?dragging\b"
        # a fifth-round dev miss, given a phrase at the seventh: "amma suddenly can't find her words"
        r"|\bsudden(?:ly)?\s+(?:\w+\s+){0,2}(?:can't|cannot|can not|couldn't|unable to|is unable to) find "
        r"(?:her|his|my|the) words\b"
        r"|\bsuddenly (?:lost|losing|lose) (?:the |his |her |my )?"
        r"(?:vision|sight)\b",
    ),
    (
        "breathing",
        r"\bribs (?:are |were )?(?:pulling|sucking|caving) in\b|\btoo tired to (?:even )?(?:cry|breathe|feed)\b"
        r"|\bbreathing (?:very )?(?:deep and fast|fast and deep)\b|\bhard to wake(?: up)?\b"
        r"(?!(?:\s+up)?" + _ROUTINE_WAKING + ")",
    ),
    (
        "serious_fall",
        r"\b(?:can't|cannot|can not|unable to) feel (?:his|her|my|their) legs\b"
        r"|\bfell (?:from|off) (?:a |the )?(?:scaffolding|roof|terrace|ladder|tree|balcony|height)\b"
        r"|\bleg (?:looks |is )?(?:shorter|turned out(?:wards)?)\b"
        r"|\b(?:vomiting|throwing up|vomited|threw up)\s+blood\b"
        # fourth round (dev): black, tarry stool with a faint: bleeding inside
        r"|\bblack,? (?:sticky|tarry|tar-like) (?:potty|stool|poo|motion)s?\b(?=[^?]{0,80}\b(?:blacked out|faint\w*|"
        r"passed out|dizzy|heart racing)\b)",
    ),
    # third round: a fit that does not stop, a child pulled out of water, pre-eclampsia's signs, an eye hurt by a
    # cracker, a head injury bleeding from the ear, a bee swarm, an infant drying out, urine that will not pass
    (
        "seizure",
        r"\b(?:fit|seizure|convulsions?)\b[^.?!]{0,80}\bstill (?:jerking|shaking|fitting|convulsing|seizing)\b"
        r"|\b(?:fit|seizure)s? (?:that )?(?:won't|will not|doesn't|does not) stop\b",
    ),
    (
        "drowning",
        r"\b(?:pulled|dragged|rescued|fished)\b[^.?!]{0,30}\bout of (?:the |a )?(?:\w+ )?(?:pool|water|river|lake|sea|"
        r"tank|well|canal)\b|\blips (?:are |look |a |bit |turning )*(?:blue|bluish)\b",
    ),
    (
        "pregnancy_warning",
        r"\bpregnan\w*\b[^?]{0,150}\b(?:blurr(?:y|ed)(?: vision)?|flashing lights|spots before (?:my|her) eyes)\b"
        # dev misses of the fourth and fifth rounds, given phrases at the seventh: the cord seen after the waters broke;
        # tightenings every few minutes before 37 weeks
        r"|\b(?:loop of (?:the )?(?:umbilical )?cord|cord (?:is )?(?:hanging|coming|sticking) out)\b"
        r"|\b(?:2\d|3[0-6]) weeks\b[^?]{0,150}\bevery \d+(?:\s*(?:-|to)\s*\d+)? (?:min|mins|minutes)\b",
    ),
    (
        "eye_or_head_injury",
        r"\b(?:went|flew|got) into (?:his|her|my|their) (?:\w+ )?eye\b|\bblood in the white (?:part|of)\b"
        r"|\bblood (?:coming |is coming )?(?:from|out of) (?:his|her|my|their) ears?\b"
        r"|\bfell (?:from|off|out of) (?:the |a )?(?:first|second|third|1st|2nd|3rd|top) floor\b"
        r"|\bfell (?:from|off|out of) (?:the |a )?(?:window|balcony)\b",
    ),
    (
        "stings_or_dehydration",
        r"\b(?:swarm|hundreds) of (?:honey ?)?(?:bees|wasps|hornets|stings)\b"
        r"|\b(?:eyes|soft spot|fontanelle) (?:look |looks |are |is )?sunken\b|\bno wet (?:nappy|nappies|diaper)\b"
        r"|\bcries without tears\b"
        r"|\b(?:hasn't|has not|haven't|have not|hadn't|not) passed (?:any )?urine since\b"
        r"|\b(?:can't|cannot|unable to) pass urine\b",
    ),
    # (held-out misses of the third round, fixed after measuring: deep bites to the face; sudden testicular pain)
    (
        "bite_or_burn",
        r"\bdeep (?:bites?|wounds?|cuts?|gash\w*)\b[^.?!]{0,40}\b(?:face|cheek|eye|neck|head|throat)\b"
        r"|\bflap of skin\b",
    ),
    (
        "testicular_pain",
        r"\bsudden\w*\b[^.?!]{0,40}\bpain in (?:one|his|my|the|a) (?:testicle|testis|ball)\b",
    ),
    # fifth round (dev): a chemical in the eyes; a child who swallowed a strip or a bottle of medicine
    (
        "poisoning",
        r"\b(?:acid|caustic|chemical|chuna|lime|bleach|soda|phenyl)\b[^.?!]{0,30}\b(?:splash\w*|went|got|fell) "
        r"(?:in|into) (?:both |his |her |my |the )?eyes?\b"
        r"|\b(?:baby|toddler|son|daughter|child|kid|\d+ ?(?:yr|year)s? old)\b[^.?!]{0,40}\b(?:ate|swallowed|eaten|"
        r"chewed|drank)\b[^.?!]{0,25}\b(?:strip|bottle|packet) of\b[^.?!]{0,30}\b(?:tablets|pills|medicines?|"
        r"capsules|syrup)\b",
    ),
    # confusion with the body's alarm signs: "sweaty, talking nonsense and doesn't recognise any of us"
    (
        "confusion",
        r"\b(?:doesn't|does not|can't|cannot|didn't|isn't|is not)\s+recogni[sz](?:e|ing)\s+(?:any of )?(?:us|me|"
        r"anyone|anybody|his|her|my)\b|\btalking (?:nonsense|gibberish)\b|\bsuddenly (?:very )?confused\b"
        r"|\b(?:he's|she's|he is|she is|they're|they are)\s+not making (?:any )?sense\b",
    ),
    # a baby's or child's fever with the signs of meningitis: a stiff or painful neck, a purple rash
    (
        "meningitis_signs",
        r"\bpurple (?:spots|rash|blotches|patches)\b|\brash that (?:doesn't|does not|won't) fade\b|"
        r"\bstiff neck\b[^.?!]{0,60}\bfever\b|\bfever\b[^.?!]{0,60}\b(?:stiff neck|(?:bend|bends|bending|move|moves|"
        r"moving|touch|touches|touching) (?:his|her|their|the) neck)\b",
    ),
    # bleeding in pregnancy: "7 months pregnant and suddenly there's bright red blood"
    (
        "pregnancy_bleeding",
        r"\bpregnan\w*\b(?![^?]{0,80}\b(?:gums?|nose)\b)[^?]{0,80}\b(?:bleeding|bright red blood|passing (?:blood|"
        r"clots)|blood clots|(?:lot|lots) of blood)\b"
        r"|\b(?:bleeding|bright red blood)\b[^.?!]{0,60}\bpregnan\w*\b",
    ),
    # bites and burns that cannot wait: a snake or scorpion, a large or deep burn
    (
        "bite_or_burn",
        # not protection against one: "is there any vaccine against snake bite for people who work in the fields?"
        r"(?<!against )\b(?:snake|scorpion|cobra|krait|viper)\b[^.?!]{0,20}\b(?:bit|bite|bites|bitten|stung|sting)\b|"
        r"\b(?:bitten|stung) by (?:a |an )?(?:snake|scorpion|cobra|krait|viper)\b|(?<!against )\bsnake ?bite\b"
        r"|\b(?:hot oil|boiling (?:water|oil|milk)|acid|steam)\b[^.?!]{0,30}\b(?:spilled|spilt|spill|fell|splashed|"
        r"thrown|poured)\b|\bskin (?:is )?(?:peeling|coming) off\b|\b(?:severe|bad|big|major|serious|deep) burns?\b",
    ),
    (
        "bleeding",
        r"\bbleeding (?:heavily|a lot|badly|profusely|won't stop|that won't stop|non-?stop)\b|"
        r"\bwon't stop bleeding\b"
        r"|\bcan't stop the bleeding\b",
    ),
    (
        "anaphylaxis",
        r"\b(?:throat|tongue|lips|face) (?:is |are )?(?:swelling|closing|swollen|puffing|puffed)\b"
        # not a plan for one: "can your allergist fill in an anaphylaxis action plan for his school"
        r"|\banaphyla\w*\b(?!\s+(?:action\s+)?(?:plans?|kits?|training|awareness|pens?|protocols?|forms?|letters?|"
        r"policy))|"
        r"\bsevere allergic reaction\b",
    ),
    (
        "poisoning_overdose",
        r"\b(?:took|taken|swallowed|ate|drank)\s+(?:too many|a whole (?:bottle|strip|pack)|the whole (?:bottle|"
        r"strip|pack)|an overdose)\b"
        # "overdosed on my pills", not "overdosed on mangoes all summer": only food and pastimes stand it down, a
        # medicine's brand name cannot be told from a word
        r"|\boverdosed\b(?!\s+on\s+(?:\w+\s+)?(?:mangoes|mangos|sweets|mithai|chocolates?|sugar|coffee|tea|chai|food|"
        r"junk|carbs|caffeine|cake|ice cream|biryani|netflix|tv|series|movies|work)\b)"
        r"|\bswallowed (?:bleach|poison|rat poison|pesticide|detergent|kerosene)\b"
        # seventh round (dev): "drank from a bottle in the bathroom thinking it was water, it was the acid toilet
        # cleaner" (not "had acid reflux": the acid must be a cleaner)
        r"|\b(?:drank|drunk|swallowed|gulped)\b[^.?!]{0,60}\b(?:toilet cleaner|toilet acid|acid cleaner|harpic|phenyl|"
        r"bleach|kerosene|pesticide|insecticide|weed ?killer|drain cleaner)\b"
        r"|\b(?:drank|drunk|swallowed|gulped)\b[^?!]{0,80}\b(?:it was|that was) (?:the |some )?(?:\w+ )?"
        r"(?:toilet cleaner|acid|harpic|phenyl|bleach|kerosene|pesticide|insecticide|drain cleaner)\b",
    ),
    # not a booked transfer: "need an ambulance to shift my mother (bedridden but stable) ... when she's discharged"
    # (thirteenth round)
    (
        "ambulance",
        r"\b(?:call|need|send|get)\s+(?:an|the)\s+ambulance\b(?!\s+to (?:shift|transfer|move|drop)\b|\s+to (?:take|"
        r"bring) (?:\w+ ){0,2}home\b|\s+for (?:\w+ )?(?:discharge|transfer|shifting)\b)",
    ),
    # eighth round (dev split): an early pregnancy with a faint or pain at the shoulder tip (ectopic); a pad soaked
    # every few minutes or big clots after a delivery; a tearing chest pain going through to the back; dialysis
    # missed, then breathless or the heartbeat irregular
    (
        "pregnancy_warning",
        r"\b(?:pregnan\w*|(?:test|kit) (?:was |is |came )?positive|period (?:is |was )?(?:\d+ (?:weeks?|days?) )?"
        r"(?:late|overdue)|missed (?:my |her )?periods?)\b(?:(?!last year|\bago\b|years? back)[^?]){0,200}?"
        r"\b(?:shoulder[- ]tip|(?:fainted|passed out|collapsed)\b[^.?!]{0,30}\b(?:just now|right now|now|today|"
        r"this morning))\b"
        # (sixteenth round, dev split: "soak a big maternity pad every 15-20 minutes 4 days after delivery, with clots
        # as big as a lemon", two words before the pad, and clots the size of a thing after a delivery)
        r"|\bsoak(?:ing|s|ed)?\s+(?:through\s+)?(?:a|one|the|her|my)?\s*(?:\w+\s+){0,2}pads?\s+(?:every|"
        r"in(?: under)?)\s+(?:\d+|an?|one|half)\b"
        r"|\b(?:delivered|delivery|gave birth)\b[^?]{0,150}\b(?:passing (?:big |large |huge )?clots|clots? (?:as "
        r"(?:big|large) as|the size of|bigger than) (?:an? )?(?:lemon|lime|golf ?ball|egg|plum|orange|tennis ball|fist|"
        r"walnut))\b",
    ),
    (
        "chest_pain",
        r"\btearing (?:pain|sensation)\b|\bpain\b[^.?!]{0,40}\bthrough to (?:his|her|my|the) back\b",
    ),
    (
        "missed_dialysis",
        r"(?:\b(?:missed|skipped)\b[^.?!]{0,40}\bdialysis\b|\bdialysis\b[^.?!]{0,40}\b(?:missed|skipped)\b)[^?]{0,150}"
        r"\b(?:breathless|short of breath|can'?t breathe|heart ?beat|palpitations?|too weak)\b",
    ),
    # ninth round (dev split): a blood pressure or a pulse read off a machine that says shock or a rhythm that cannot
    # wait (85/50, pulse 38 or 190); double vision with spinning and a walk that tips to one side; names mixed up;
    # a cold sweat with the chest, jaw or breath; oleander seeds or camphor eaten, then vomiting, a slow pulse or
    # twitching; "red jelly" in a baby's nappy; a baby that has not kicked since last night; a fall in pregnancy
    # followed by spotting or a tight, painful belly
    (
        "vital_signs",
        r"\b(?:bp|blood pressure|machine|monitor)\b[^.?!]{0,30}\b(?:[4-8]\d)\s*/\s*(?:[2-5]\d)\b"
        r"|\bpulse\b[^.?!]{0,30}\b(?:[1-3]\d|1[5-9]\d|2\d\d)\b(?!\s*(?:%|percent|days?|years?|mins?|minutes|seconds))",
    ),
    (
        "heart_attack_stroke",
        r"\b(?:sees|seeing)\s+(?:two of everything|double)\b[^?]{0,120}\b(?:spinning|can'?t walk|cant walk|speech|"
        r"slurr\w*|tipping|falling to)\b"
        r"|\bmixing up (?:our|my|his|her|their) names\b"
        r"|\bcold sweat\w*\b[^?]{0,100}\b(?:chest|jaw|breath\w*|arms?|shoulders?|vomit\w*)\b"
        r"|\b(?:chest|jaw|breath\w*|shoulders?)\b[^?]{0,100}\bcold sweat\w*",
    ),
    # dev misses of the sixth round the refitted probe no longer catches: a throat "tight" and breathing "making a
    # whistling noise" after hair dye; eyebrows singed and coughing black after a gas fire (a burnt airway)
    (
        "anaphylaxis",
        r"\bthroat (?:is |feels )(?:tight|closing)\b|\bbreathing\b[^.?!]{0,30}\bwhistl\w*",
    ),
    (
        "bite_or_burn",
        r"\b(?:eyebrows|moustache|mustache|eyelashes|nose hairs?)\b[^.?!]{0,30}\bsinged\b|\bcoughing (?:up )?black\b",
    ),
    (
        "poisoning",
        r"\b(?:kaner|oleander|camphor|kapoor|kapur)\b[^?]{0,150}\b(?:vomit\w*|pulse|faint\w*|twitch\w*|fits?|jerk\w*|"
        r"seizure|convuls\w*|drowsy)\b",
    ),
    (
        "child_or_pregnancy_warning",
        r"\bred (?:jelly|currant)\b"
        # (a lookahead: "since last night" must stay after the match, where it says the episode goes on)
        r"|\b(?:baby|he|she)\s+(?:hasn'?t|has not|hasnt|hadn'?t|not)\s+(?:kicked|moved)\b"
        r"(?=[^?]{0,40}\b(?:since|all day|at all|for \d+))"
        r"|\bpregnan\w*\b[^?]{0,80}\b(?:slipped|fell|landed)\b[^?]{0,80}\b(?:spotting|bleeding|tight|pain|hurt\w*)\b",
    ),
    # tenth round (dev split): an oximeter that reads in the 80s; a child tangled in a blind's cord with a red line
    # around the neck; an eye that is rock hard with rainbow rings round lights (acute glaucoma); a leg gone cold and
    # white, then bluish (a blocked artery)
    (
        "vital_signs",
        # (the saturation, not a pulse the same device shows: "oximeter shows 98 and pulse 72")
        r"\b(?:oximeter|spo2|sp02|oxygen (?:level|saturation|reading)|saturation|sats)\b"
        r"(?:(?!pulse|heart ?rate|bpm)[^.?!]){0,40}\b(?:[5-8]\d)\b"
        r"(?!\s*(?:years?|yrs?|kg|bpm|mins?|minutes|days?|rs|rupees|/))",
    ),
    (
        "child_or_pregnancy_warning",
        r"\btangled in (?:the )?(?:cord|rope|string|wire|curtain cord|blind cord)\b"
        r"|\bred (?:line|mark|ring) (?:all )?(?:around|round) (?:his|her|the|my) neck\b",
    ),
    (
        "eye_injury",
        r"\brainbow (?:rings|halos?|circles)\b|\beye\b[^.?!]{0,60}\b(?:rock hard|hard as (?:a )?(?:rock|stone))\b",
    ),
    (
        "heart_attack_stroke",
        r"\b(?:leg|foot|arm|hand)\b[^.?!]{0,30}\b(?:went|gone|turned|is|has gone)\s+(?:cold and (?:white|pale|blue)|"
        r"(?:white|pale) and cold)\b",
    ),
    # eleventh round (dev split): a child whose skin between the ribs sucks in, with a harsh noise at each breath in
    # (croup's stridor); a stab wound with "something pinkish coming out of the cut"; blood "shooting out" of a
    # varicose vein; a glucometer at 38 and a husband they "cant wake at all"; a wife found on the floor after a gas
    # geyser ran with the window shut; acid thrown on a face
    (
        "breathing",
        r"\b(?:skin|chest|tummy)\b[^.?!]{0,30}\b(?:between|under|below) (?:his|her|the|my) ribs\b[^.?!]{0,20}"
        r"\b(?:sucking|pulling|caving|sinking|going) in\b",
    ),
    (
        "bleeding",
        r"\b(?:got|been|was just|has been|just got) stabbed\b(?! in the back by\b)"
        r"|\b(?:coming|sticking|hanging|poking|bulging) out (?:of|from) (?:the|his|her|my) (?:cut|wound|stomach|"
        r"belly|tummy)\b"
        r"|\bblood\b[^.?!]{0,20}\b(?:shooting|spurting|pumping|gushing|squirting|spraying) out\b",
    ),
    (
        "unconscious",
        r"\b(?:glucometer|sugar|glucose|reading|rbs|cbg)\b[^.?!]{0,30}\b(?:says|shows|showing|reads|reading|is|was|"
        r"of)\s+(?:[1-4]\d)\b(?!\s*(?:years?|yrs?|kg|mins?|minutes|days?|units?|%|rs|rupees|/|\.\d|hours?|ml|mg|g|gm|"
        r"grams?|tablets?|pills?|sachets?|packets?|strips?|am|pm|o'?clock|:|th|st|nd|rd))"
        r"|\b(?:can'?t|cant|cannot|unable to|not able to) (?:wake|rouse) (?:him|her|them|my \w+)(?: up)? "
        r"(?:at all|now)\b"
        r"|\bfound (?:her|him|them|my (?:mother|father|mom|mum|dad|wife|husband|son|daughter|brother|sister|grand\w+|"
        r"child|baby|kid|friend|uncle|aunt|papa|mummy|dadi|nani|nana|dada)) (?:lying |collapsed )?on the "
        r"(?:bathroom |kitchen )?(?:floor|ground)\b(?!\s+(?:playing|sleeping|asleep|reading|watching|crawling|sitting|"
        r"eating|laughing))",
    ),
    (
        "poisoning",
        r"\b(?:gas )?geyser\b[^.?!]{0,60}\b(?:windows?|doors?|vents?) (?:shut|closed)\b[^?]{0,120}\b(?:confused|"
        r"dizzy|vomit\w*|faint\w*|unconscious|floor|headache|head is (?:splitting|pounding))\b",
    ),
    (
        "bite_or_burn",
        r"\b(?:threw|thrown|throws|splashed) acid\b|\bacid (?:thrown|splashed) (?:on|at|in)\b",
    ),
    # twelfth round (dev split): after a rusty nail, a jaw locked and a body "arched backwards in a spasm" (tetanus);
    # an upper belly suddenly "hard as a board" (a perforation)
    (
        "seizure",
        r"\b(?:whole )?body (?:arched|arches|arching|went stiff and arched) backwards?\b"
        r"|\block ?jaw\b[^?]{0,80}\b(?:nail|wound|cut|spasm|stiff)\b",
    ),
    # ... and fingers "gone dusky blue and cold" under a fresh plaster; a fever of 104 with a heart rate of 150 and
    # jerking legs; "cant swallow my own spit" with the tongue pushed up; an erection that "won't go down" for hours;
    # a two-day-old's "bright green vomit"
    (
        "heart_attack_stroke",
        r"\b(?:fingers?|toes?)\b[^.?!]{0,40}\b(?:gone|turned|going|are|look|looking) "
        r"(?:dusky |dark |bluish |purplish )?(?:blue|purple) and (?:cold|numb)\b",
    ),
    (
        "vital_signs",
        r"\b(?:temperature|temp|fever)(?: is| of| was)?\s+10[4-7](?:\.\d)?\b[^?]{0,100}\b(?:heart rate|pulse|hr)\b"
        r"[^.?!]{0,20}\b1[4-9]\d\b",
    ),
    (
        "breathing",
        r"\b(?:can'?t|cannot|can not|unable to) swallow (?:my|his|her) (?:own )?(?:spit|saliva)\b"
        r"|\btongue (?:is )?(?:getting |being )?pushed up\b",
    ),
    (
        "testicular_pain",
        r"\berection\b[^.?!]{0,30}\b(?:won'?t|will not|doesn'?t|does not|didn'?t|did not) go (?:down|away)\b",
    ),
    (
        "child_or_pregnancy_warning",
        r"\b(?:baby|newborn|infant|born|days? old|weeks? old)\b[^?]{0,150}\b(?:bright |dark )?(?:green|bile|bilious) "
        r"(?:vomit|vomiting|sick)\b(?!\s+(?:stains?|marks?|on (?:her|his|the|my) (?:clothes|dress|shirt|sheets?)))",
    ),
    (
        "acute_abdomen",
        r"\b(?:belly|stomach|tummy|abdomen)\b[^.?!]{0,25}\b(?:hard|rigid|stiff) (?:as|like) (?:a )?(?:board|plank|"
        r"wood|rock|stone)\b",
    ),
    # thirteenth round (dev split): lips "gone bluish" and breathing "4-5 times a minute" under a fentanyl patch, a man
    # they "can't properly wake"; breathing "really deep and fast" in a diabetic out of insulin; a neck swelling under
    # the dressing after a thyroid operation and the breathing "getting noisy"
    (
        "breathing",
        r"\blips (?:have |has )?(?:gone|turned|going|turning) (?:blue|bluish)\b"
        r"|\bbreathing (?:like |only |about |just )?(?:[1-6]|[1-6] ?(?:-|to) ?[2-8]) (?:times|breaths) (?:a|per|in a) "
        r"minute\b"
        r"|\bbreathing (?:is )?(?:really |so |very |too )?(?:deep and fast|fast and deep)\b"
        r"|\bneck\b[^.?!]{0,20}\b(?:swelling|swollen|swelled|puffing)\b[^?]{0,120}\b(?:breathing|breath)\b[^.?!]{0,30}"
        r"\b(?:noisy|harsh|whistl\w*|rattl\w*|getting (?:worse|harder|difficult))\b",
    ),
    # ... and a knock on the head on a blood thinner, then vomiting and "dozing off mid-sentence" (the signs after it,
    # so that a past time just after "bumped her head" stands it down); "got current from the wire"
    (
        "unconscious",
        r"\b(?:can'?t|cant|cannot|can not|unable to|not able to) (?:properly|really|fully) (?:wake|rouse) "
        r"(?:him|her|them|my \w+)\b(?!(?:\s+up)?" + _ROUTINE_WAKING + ")"
        r"|\b(?:bumped|hit|banged|knocked|struck) (?:his|her|my|their) head\b(?=[^?]{0,200}?\b(?:vomit\w*|threw up|"
        r"throwing up|(?:dozing|dozes|dozed|nodding|drifting) off|drowsy|(?:is|seems|looks|became|getting|gone) "
        r"(?:very |a bit |more )?confused)\b)"
        r"|\bgot (?:a |an )?(?:bad |strong )?current\b(?!\s+back)[^.?!]{0,40}\b(?:geyser|wire|wiring|socket|switch|"
        r"plug|heater|cooler|mains|meter|pump|pole)\b",
    ),
    # ... and chest tightness a mother "has had ... for 40 min"; a bone "poking out through the skin"; after a dive into
    # a shallow pond, "cant feel or move his legs"
    (
        "chest_pain",
        r"\b(?:has had|have had|'s had|'ve had)\s+(?:a\s+|some\s+)?(?:(?:severe|sharp|crushing|bad|sudden|terrible|"
        r"strong|tight)\s+)?chest (?:pains?|tightness|pressure|heaviness)\b(?=\s+(?:for|since) (?:the (?:last|past) )?"
        r"(?:\d+|an?|one|two|half an?) ?(?:min|mins|minutes|hours?|hrs?)\b)",
    ),
    (
        "serious_fall",
        r"\bbone\b[^.?!]{0,30}\b(?:poking|sticking|coming|jutting|pushing) (?:out )?(?:through|of) (?:the |his |her "
        r"|my )?skin\b"
        r"|\b(?:can'?t|cant|cannot|can not|unable to) (?:feel or move|move or feel) (?:his|her|my|their) (?:legs|arms|"
        r"body|hands|feet)\b",
    ),
    # fourteenth round (dev split): a cricket ball to "the side of his head", then vomiting, very drowsy and "one pupil
    # looks bigger than the other" (the signs after it, as for the thirteenth's knock on the head); a rebar rod "gone
    # into his thigh", blood all around it, pale and cold; an uncle seen through the window "on the floor near the bed,
    # moving a little and moaning"
    (
        "unconscious",
        r"\b(?:(?:hit|struck|bumped|banged|knocked|hurt|injured)\s+(?:on|in)\s+(?:the\s+)?(?:(?:side|back|front|top)\s+"
        r"of\s+(?:the\s+|his\s+|her\s+|my\s+|their\s+)?)?(?:head|skull|temple)|head injury)\b"
        r"(?=[^?]{0,200}?\b(?:vomit\w*|threw up|throwing up|(?:dozing|dozes|dozed|nodding|drifting) off|drowsy|"
        r"(?:is|seems|looks|became|getting|gone) (?:very |a bit |more )?confused)\b)"
        # (not one a child was born with: "one pupil is bigger than the other since birth")
        r"|\b(?:one|left|right|his|her) pupil\b[^.?!]{0,30}\b(?:bigger|larger|smaller|wider|more dilated) than\b"
        r"(?![^.?!]{0,40}\b(?:since (?:birth|childhood|he was|she was|i was)|always|all (?:his|her|my) life)\b)"
        r"|\bpupils? (?:are |look |looks |is )?(?:unequal|uneven|(?:of )?different sizes?)\b"
        r"(?![^.?!]{0,40}\b(?:since (?:birth|childhood|he was|she was|i was)|always|all (?:his|her|my) life)\b)"
        r"|\b(?:see|saw|seen|found|find|spotted|noticed)\s+(?:him|her|them|my \w+|(?:the|our) (?:\w+ ){0,2}?\w+)\s+"
        r"(?:lying\s+|collapsed\s+|fallen\s+)?on the (?:bathroom |kitchen |bedroom )?(?:floor|ground)\b"
        r"(?=[^?]{0,80}\b(?:moaning|groaning|not moving|barely moving|moving a little|(?:not|isn'?t|isnt) (?:answering|"
        r"responding)|(?:can'?t|cannot|unable to|won'?t) get up)\b)",
    ),
    (
        "bleeding",
        # an object driven into the body, with heavy bleeding or shock around it (not a splinter to be taken out)
        r"\b(?:rod|rebar|bar|pipe|stick|spike|nail|knife|blade|glass|shard|iron|steel|metal|wire|arrow|screwdriver)\b"
        r"[^.?!]{0,20}\b(?:has gone|went|gone|pierced|stuck|lodged|embedded|driven|sticking) (?:into|in|through) "
        r"(?:his|her|my|their|the) (?:\w+ )?(?:thigh|leg|calf|arm|chest|belly|stomach|tummy|abdomen|neck|back|eye|"
        r"head|skull|foot|hand|groin|buttock|side)\b(?=[^?]{0,150}\b(?:blood all (?:around|over)|lots? of blood|pool "
        r"of blood|bleeding (?:heavily|a lot|badly|profusely)|(?:gone|going|turned|is|looks) (?:very )?(?:pale|grey|"
        r"gray|cold and clammy))\b)",
    ),
    # ... and a man who waded through flood water, "his eyes are yellow, he has hardly passed urine since yesterday
    # and he coughed up blood"; a wound on a diabetic's calf gone purplish-black, "the skin crackles when pressed",
    # "fever 104 and he's confused" (the confusion after the figure, so that a past time just after it stands it down)
    (
        "vital_signs",
        r"\b(?:eyes|skin|eye whites)\b[^.?!]{0,15}\b(?:yellow|yellowish)\b[^?]{0,150}\b(?:(?:hardly|barely|not|no|"
        r"hasn'?t|hasnt|has not)\s+(?:passed|passing|peed|peeing|urinated)\b|cough\w*\s+(?:up\s+)?blood\b|vomit\w*\s+"
        r"blood\b|(?:is|became|gone|getting|seems) (?:very |a bit )?(?:confused|drowsy)\b(?!\s+(?:about|which|whether|"
        r"by|with|regarding|how|if)\b))"
        r"|\b(?:hardly|barely|not|hasn'?t|hasnt|has not)\s+(?:passed|passing|peed|peeing|urinated)\b[^?]{0,150}"
        r"\b(?:eyes|skin|eye whites)\b[^.?!]{0,15}\b(?:yellow|yellowish)\b"
        r"|\b(?:fever|temperature|temp)(?: is| of| was)?\s+(?:10[3-7]|39\.[5-9]|4[0-2])(?:\.\d)?\b(?=[^?]{0,80}\b"
        r"(?:(?:is|he'?s|she'?s|became|gone|getting|seems|been) (?:very |a bit |more |quite )?(?:confused|delirious)"
        r"\b(?!\s+(?:about|which|whether|by|with|regarding|how|if)\b)|talking (?:nonsense|gibberish)\b))"
        # (crackling felt under the finger, not dry skin that cracks in winter)
        r"|\bskin\b[^.?!]{0,30}\b(?:crackles|crackling|crunches|crunchy)\b[^.?!]{0,20}\b(?:press\w*|touch\w*|"
        r"finger\w*)\b",
    ),
    # fifteenth round (dev split), emergencies told by their signs only, often after a billing or booking request: a
    # five-week-old's "hrt beatin so fast cant count it" (not a heart that "was" racing on a treadmill test); an
    # angiography site where "blood is soaking through the bandage" and he is "dizzy and cold" (not a little blood
    # through a dressing, not a cold pack); a labourer down a septic tank and the boy who went after him "also lying
    # there not moving" (not one who "was" lying there when the ambulance came)
    (
        "heart_attack_stroke",
        r"\b(?:heart|hrt|heartbeat|heart ?beat|pulse)\s+(?:is\s+)?(?:beating|beatin|racing|going|pounding)\s+(?:so|too|"
        r"very|really)\s+fast\s+(?:that\s+)?(?:(?:i|we|you|u)\s+)?(?:can'?t|cant|cannot|can not|couldn'?t|unable to)\s+"
        r"count\b",
    ),
    (
        "bleeding",
        r"\bblood\b[^.?!]{0,20}\b(?:soak\w*|seep\w*|coming|oozing)\s+through\s+(?:the\s+|his\s+|her\s+|my\s+)?"
        r"(?:bandage|dressing|gauze|plaster)\b[^?]{0,100}\b(?:dizzy|faint\w*|(?:is|feels?|gone|going|looks?|and) "
        r"(?:very )?(?:cold|pale|clammy|grey|gray)|sweat\w*)\b",
    ),
    (
        "unconscious",
        r"\b(?:he|she|they|he'?s|she'?s|they'?re)\s+(?:is\s+|are\s+)?(?:also\s+|just\s+|now\s+)?lying\s+(?:there|"
        r"inside|on the (?:floor|ground))\s+(?:and\s+)?(?:not moving|motionless|not breathing|not answering|"
        r"unconscious)\b"
        r"|\b(?:septic tank|sewer|manhole|soak pit)\b[^?]{0,100}\b(?:fell down|fainted|collapsed|passed out|"
        r"(?:isn'?t|isnt|is not|not) (?:answering|moving|breathing))\b",
    ),
    # ... and in an ammonia leak one "gasping, frothing a little and his lips are going dark", after a fall onto a
    # tub "his breathing is getting faster ... his lips are going dusky" (the breath first: not lips darkened by
    # smoking); a watchman after a night in the cold wave, "his skin is ice cold, he's stopped shivering" (not one
    # who keeps shivering); on Mestinon, "can't swallow even water ... breathing in short shallow breaths" (not
    # short shallow breaths in a panic attack); a Caesarean wound whose "stitch line has opened ... something shiny
    # and pinkish pushing out" (not a wound that opened and was re-stitched); fast insulin "40 units from his
    # Actrapid pen instead of the Lantus", then sweating, shaking and slurred (a past time before it stands it down,
    # as for last month's wrong pen)
    (
        "breathing",
        r"\b(?:gasping|breath\w*|choking|cough\w*|wheez\w*)\b[^?]{0,120}\blips (?:are |is |have |has )?(?:gone|turned|"
        r"going|turning|getting|looking) (?:dark|dusky|grey|gray|purple|purplish)\b"
        r"|\b(?:can'?t|cant|cannot|unable to|not able to) swallow\b[^?]{0,150}\b(?:short,? shallow breaths|shallow "
        r"(?:breaths|breathing)|breathing (?:is )?(?:very )?shallow)\b",
    ),
    (
        "vital_signs",
        # (from the body's coldness, not the night's: "slept out last night in the cold wave" is a past time before it)
        r"\b(?:ice[- ]cold|freezing cold|hypotherm\w*)\b[^?]{0,100}\b(?:(?:has |he'?s |she'?s )?stopped shivering|"
        r"(?:words|speech) (?:are |is )?slurr\w*)\b",
    ),
    (
        "bleeding",
        r"\b(?:stitch\w*|wound|incision|scar)\b[^.?!]{0,40}\b(?:opened|opened up|come apart|came apart|burst|split "
        r"open)\b[^?]{0,150}\b(?:pushing|coming|poking|bulging|sticking|hanging) out\b",
    ),
    (
        "unconscious",
        r"\b(?:injected|took|taken|given|gave|put)\b[^.?!]{0,40}\b(?:units?|insulin|pen)\b[^.?!]{0,60}\b(?:instead of|"
        r"by mistake|wrong pen|too much|twice|double)\b[^?]{0,150}\b(?:sweat\w*|shak(?:ing|y)|trembl\w*|slurr\w*|"
        r"confused|drowsy|not answering|faint\w*)\b",
    ),
    # a dev miss of the sixth round the probe refitted at the sixteenth no longer catches: after a skid, "his thigh is
    # bent in the middle, something white is poking through the jeans and blood is soaking through" (a limb bent where
    # it has no joint, or something white poking out: an open fracture, as the thirteenth round's bone poking out)
    (
        "serious_fall",
        r"\b(?:thigh|leg|arm|shin|forearm)\b (?:is |looks |has |got )?(?:bent|gone|twisted) (?:in the middle|the wrong "
        r"way|at an? (?:odd|weird|strange|funny) angle|backwards)\b"
        r"|\bsomething white\b[^.?!]{0,20}\b(?:poking|sticking|coming|showing) (?:out|through)\b",
    ),
    # seventeenth round (dev split), emergencies by their signs only: a coal angithi burning all night "with the door
    # and window shut", then a splitting headache, throwing up, confused, fainting (a fire, a stove or a heater in a
    # shut room, then confusion, fainting, drowsiness or vomiting: carbon monoxide; not a talk on safe ventilation)
    (
        "poisoning_overdose",
        r"\b(?:angithi|angithis|angeethi|anghithi|sigri|sigdi|coal (?:stove|heater|fire|brazier|burner)|charcoal "
        r"(?:stove|heater|fire|brazier|burner)|brazier|kerosene (?:heater|stove)|room heater|generator)\b[^?]{0,150}?"
        r"\b(?:shut|closed|no ventilation|sealed)\b[^?]{0,250}?\b(?:confused|confusion|fainted|fainting|faints|"
        r"unconscious|drowsy|won'?t wake|not waking|collapsed|passed out|doesn'?t know what day|throwing up|vomiting)"
        r"\b",
    ),
    # ... a boy who "touched the water pump switch with wet hands ... and was thrown back, out for a few seconds",
    # with a burn on his palm; an uncle under a neem tree, "a huge flash and he was thrown to the ground, out for
    # about a minute" (a switch, a wire or a pole touched, or lightning, then thrown, knocked out or out for a while,
    # or a burn on the palm or the sole); a flatmate on pills "breathing like once every 10 sec"
    (
        "unconscious",
        r"\b(?:touched|grabbed|held|caught|touching|grabbing)\s+(?:a|the|an)\s+(?:[\w-]+\s+){0,3}?(?:switch|wire|socke"
        r"t|"
        r"plug|pole|cable|motor|pump|fence|line)\b[^?]{0,120}?\b(?:thrown (?:back|off|across|to the (?:ground|floor)|"
        r"down)|knocked (?:out|back|down)|out for (?:a|about|around|nearly|\d)|passed out|unconscious|burns? (?:mark )?"
        r"on (?:his|her|the|my) (?:palm|hand|foot|sole|feet))\b"
        r"|\b(?:lightning|thunder ?storm|thunder|a (?:huge|big|bright) flash)\b[^?]{0,150}?\b(?:thrown (?:back|off|to "
        r"the "
        r"(?:ground|floor)|down)|knocked (?:out|down|over)|out for (?:a|about|around|nearly|\d)|unconscious|passed out|"
        r"collapsed)\b(?!\s+(?:the|our|my|his|her|their|a|an|power|electricity|inverter|tv|lights?|trees?|poles?)\b)"
        r"|\bbreathing (?:is |was )?(?:like |only |about |just )?once (?:every|in|per) (?:\d+|a few|few) ?(?:sec|secs|"
        r"seconds)\b",
    ),
    # ... paan chuna squeezed into a three-year-old's eye (a caustic thing squeezed, splashed or got into an eye; not
    # what to do if cement gets into the eyes, asked of a course)
    (
        "poisoning_overdose",
        r"\b(?:chuna|choona|slaked lime|quick ?lime|bleach|acid|cement|phenyl|harpic|toilet cleaner|drain cleaner|"
        r"caustic soda|battery acid|lizol|colin)\b[^?]{0,60}?\b(?:got|gone|went|squeezed|splashed|sprayed|spilt|spille"
        r"d|"
        r"fell|thrown|threw|rubbed|poured|put|squirted)\b[^?]{0,30}?\b(?:in|into) (?:his|her|my|their|the|both|one) "
        r"eyes?\b"
        r"|\b(?:got|splashed|sprayed|spilt|spilled|threw|rubbed|poured|squeezed|squirted)\s+(?:some\s+|the\s+)?(?:chun"
        r"a|"
        r"choona|slaked lime|quick ?lime|bleach|acid|cement|phenyl|harpic|toilet cleaner|drain cleaner|caustic soda|"
        r"battery acid|lizol|colin)\s+(?:\w+\s+)?(?:in|into) (?:his|her|my|their|the|both|one) eyes?\b",
    ),
    # nineteenth round (dev split): "i took the whole box of my co-codamol about an hour ago. feel kind of sick and
    # sleepy now" (an overdose already taken, an emergency and not a medication question: the whole or an entire box,
    # packet, bottle, tub or strip of a medicine taken or swallowed, then a time since or how it feels; not a box taken
    # to the pharmacy or back)
    (
        "poisoning_overdose",
        r"\b(?:took|taken|swallowed|had|downed|necked)\s+(?:the|a|an)\s+(?:whole|entire|full)\s+(?:box|boxes|packet|"
        r"packets|pack|bottle|tub|strip|blister|sheet|card)\s+(?:of\s+)?(?:(?:my|his|her|their|the|mum's|dad's)\s+)?"
        r"(?:[\w-]+\s+){0,2}?"
        r"(?![^.?!]{0,60}\b(?:to (?:the|a|your|my)|back|with (?:me|us)|for (?:disposal|return))\b)"
        r"[^?]{0,80}?\b(?:(?:an?|one|two|three|\d+|half an?|about an?|about \d+) (?:hours?|hrs?|minutes?|mins?) ago|"
        r"(?:feel|feeling|felt|am|i'?m|im|getting|really|kind of|kinda)\s+(?:\w+\s+){0,2}?(?:sick|sleepy|drowsy|dizzy|"
        r"woozy|faint|confused)|vomit\w*|throwing up|can'?t stay awake)\b",
    ),
    # twentieth round (dev split): a grandfather on antibiotics for a water infection who "doesn't know what day it is,
    # his teeth are chattering, he's breathing like he's run a race, his skin looks blotchy and he's not been to the
    # toilet since breakfast" (sepsis, never named: an infection or antibiotics, then two of confusion, shaking or
    # chattering teeth, fast breathing, blotchy or mottled skin, no urine since a time; not a support group two years
    # after sepsis)
    (
        "sepsis_signs",
        r"\b(?:antibiotics?|infection|uti|cellulitis|temperature|fever|feverish)\b[^?]{0,200}?" + _SEPSIS_SIGN
        + r"[^?]{0,200}?" + _SEPSIS_SIGN,
    ),
    # ... type 1, vomiting, "the ketone strip says 3.8. My breath smells like nail varnish remover" (blood ketones of 3
    # or more read from a strip or a meter, or breath smelling of nail varnish remover, pear drops or acetone: a
    # diabetic ketoacidosis, never named; not "if my ketones go above 3", asked as a plan)
    (
        "dka_signs",
        r"(?<!\bif )(?<!\bif my )(?<!\bwhen )\bketones?\b(?:\s+(?!above|over|under|below|than|goes?|go|get|gets|reach|"
        r"reaches|hit|hits)[\w-]+){0,4}?\s*(?:is|are|of|at|says|said|reads|read|showing|shows|show|was|were|now|:|"
        r"-)?\s*(?:[3-9](?:\.\d+)?|1\d(?:\.\d+)?)\s*(?:mmol\S*)?(?![\d.]*\s*(?:days?|weeks?|years?|months?|hours?|hrs?|"
        r"times?|am|pm|ml|kg|%|pounds?|quid|p\b|each|packs?|boxes|strips?|tests?|pence))|\bbreath\s+(?:smells?|"
        r"smelling|smelt|smelled)\s+(?:\w+\s+)?(?:like|of)\s+(?:\w+\s+)?(?:nail (?:varnish|"
        r"polish)(?: remover)?|pear ?drops|acetone)\b",
    ),
)

SENSITIVE: tuple[tuple[str, str], ...] = (
    (
        "medication_decision",
        r"\bstop(?:ped|ping)? taking\b|\bcome off my\b|\bget off my (?:meds|medication|medicine)\b|"
        r"\boff my (?:meds|medication|medicine)\b",
    ),
    (
        "medication_decision",
        r"\b(?:can|should|may|could)\s+i\s+(?:just\s+|simply\s+)?(?:stop|quit|skip|double|increase|decrease|reduce|low"
        r"er|change|"
        r"halve|"
        r"split|crush|cut)\s+"
        r"(?:taking\s+|on\s+|down\s+on\s+)?(?:my|the|these|this|those)?\s*(?:\w+\s+)?(?:" + MEDS + "|"
        + MEDICINE + r")\b",
    ),
    # "Is it safe to keep taking my antidepressant while I'm breastfeeding or should I stop it?"
    (
        "medication_decision",
        r"\bis it (?:safe|ok|okay|fine|alright|all right) to (?:keep|continue|carry on|go on|stop|restart|start)\s+"
        r"(?:taking|using|on)\s+(?:my\s+|the\s+|this\s+|these\s+|his\s+|her\s+)?(?:\w+\s+)?(?:" + MEDS + "|"
        + MEDICINE + r"|it|them)\b"
        r"|\b" + MEDICINE + r"\b[^.?!]{0,80}?\bshould i (?:stop|quit|skip|pause|halve|double|continue|keep taking)\s+"
        r"(?:it|them|taking (?:it|them))\b",
    ),
    # a child given a medicine by the parent's choice: "can i give my 6 yr old half of a Dolo 650 for his fever"
    (
        "medication_decision",
        r"\b(?:can|should|may|could|shall)\s+i\s+give\s+(?:my|our|the|him|her|them)\b[^.?!]{0,40}?\b(?:half|quarter|"
        r"one|two|a|an|some)\s+(?:of\s+)?(?:an?\s+|my\s+|his\s+|her\s+)?(?:\w+\s+)?(?:" + MEDICINE
        + r"|[a-z]+\s+\d{2,4}(?:\s*mg)?)\b",
    ),
    # not a change the doctor made ("The doctor increased my dose ... will the pharmacy see it?")
    (
        "medication_decision",
        r"(?<!increased )(?<!reduced )(?<!changed )(?<!raised )(?<!lowered )(?<!adjusted )\bmy (?:dose|dosage|doses)\b|"
        # ... but going back on that change is a decision: "can I go back to my old dose?", "can I cut it back?"
        r"\b(?:can|should|may|could) i (?:cut (?:it|them) (?:back|down)|go back to (?:my |the )?(?:old|previous|"
        r"earlier|usual) (?:dose|dosage|tablets?)|take less|take half)\b|"
        # (not a charge made twice: "a double dose on the bill but not in the box", thirteenth round)
        r"\bdouble(?:d)?\s+(?:up|my dose|the dose|dose)\b(?!\s+(?:on|in) (?:the|my|our|your) (?:bill|invoice|receipt|"
        r"statement|order|app|account|card)\b)",
    ),
    (
        "medication_decision",
        r"\b(?:skip|skipped|skipping|miss|missed|forgot|forget)\s+(?:a |my |the |one |two |today's |"
        r"this morning's )?(?:\w+\s+)?(?:dose|doses|pill|tablet|insulin|injection|medication)\b"
        r"(?!\s+(?:appointment|slot|booking|date|visit))",
    ),
    (
        "medication_decision",
        r"\b(?:increase|decrease|reduce|lower|raise|adjust|change|cut down|halve|"
        r"double)\s+(?:on\s+)?my\s+(?:medication|medicine|meds|insulin|dose|dosage|pills|tablets|inhaler)\b",
    ),
    (
        "medication_decision",
        r"\bhow (?:many|much)\s+(?:\w+\s+)?(?:pills|tablets|mg|units|capsules|drops|puffs)\s+(?:can|should|do)"
        r"\s+i\s+take\b",
    ),
    (
        "medication_decision",
        r"\btake (?:more|extra|less|another)\s+(?:of\s+)?(?:my\s+)?(?:medicine|medication|meds|pills|tablets|"
        r"insulin|dose|painkillers?)\b",
    ),
    (
        "medication_decision",
        r"\b(?:mix|combine|take)\s+(?:my\s+)?[\w-]+\s+with\s+(?:alcohol|beer|wine|whisky|liquor|drinks?)\b|"
        r"\bis it (?:safe|ok|okay|fine) (?:for me )?to (?:take|combine|mix)\s+(?:\w+\s+){0,2}(?:"
        + MEDS
        + r"|with|and|together|while|during)\b"
        # not the doctor's instruction repeated: "doctor said never drink alcohol with my metronidazole"
        r"|(?<!never )(?<!not to )\b(?:drink|have|take)\s+(?:alcohol|beer|wine|a drink|drinks|a few drinks)\s+"
        r"(?:with|while on|"
        r"while taking|on)\s+(?:my\s+)?\w+"
        # "are one or two pegs ok while i'm on metronidazole"
        r"|\b(?:alcohol|beer|wine|whisky|whiskey|rum|vodka|liquor|daru|pegs?|drinks)\b[^.?!]{0,40}?\b(?:while|when|"
        r"if)\s+(?:i'm\s+|i am\s+|he's\s+|she's\s+)?(?:on|taking)\s+(?:my\s+|the\s+|this\s+)?(?:\w+\s+)?"
        + MEDICINE + r"\b",
    ),
    # Taking one medicine with another is an interaction question for a clinician, whatever the
    # drugs' names: a medicine word on both sides of "with / and / together / alongside / clash".
    (
        "medication_interaction",
        # "have" as in taking, not keeping: "we have a lot of unused tablets and insulin at home"
        r"\b(?:take|taking|(?<!we )(?<!they )have|use|give|combine|mix)\b[^.?!]{0,40}?\b" + MEDICINE
        + r"\b[^.?!]{0,30}?"
        r"\b(?:with|and|alongside|together with|at the same time as|while (?:on|taking))\b[^.?!]{0,30}?\b"
        + MEDICINE + r"\b"
        r"|\b" + MEDICINE + r"\b[^.?!]{0,40}?\b(?:clash|interact|interfere)(?:s|es)?\s+with\b[^.?!]{0,30}?\b"
        + MEDICINE + r"\b"
        # "I'm on atorvastatin, can I take the antibiotic alongside it?", "two painkillers together"
        r"|\b(?:i'm|i am|she's|he's|she is|he is)\s+on\s+(?:\w+\s+)?" + MEDICINE + r"\b[^.?!]{0,10}[,;]?"
        r"[^.?!]{0,40}?\b(?:take|have|use)\b[^.?!]{0,30}?\b(?:alongside|together with|with|and)\s+(?:it|them)\b"
        r"|\b(?:two|2|both|different|several)\s+(?:different\s+)?" + MEDICINE + r"\s+(?:together|at the same time|"
        r"at once)\b",
    ),
    ("medication_decision", r"\bshould i (?:keep|continue|carry on|go on) (?:taking|using)\b"),
    # a sixth-round dev miss, given a phrase at the seventh: "I'm on metformin 1000 twice a day, do I stop it the day
    # before or after the scan?"
    (
        "medication_decision",
        r"\b" + MEDICINE + r"\b[^?]{0,150}?\b(?:do|should|must|shall) i (?:stop|skip|pause|hold) (?:it|them)\b",
    ),
    (
        "medication_decision",
        # "I've been on Ecosprin since my stent ... thinking of stopping it for a few weeks"
        r"\b(?:been on|i'?m on|i am on|been taking)\s+\w+[^?]{0,120}?\b(?:thinking of|thinking about|planning to|"
        r"planning on|going to|want to|decided to)\s+(?:\w+ly\s+)?(?:stop|stopping|skip|skipping|quit|quitting|pause|"
        r"pausing|drop|dropping)\s+(?:it|them)\b"
        r"|\b(?:on|taking)\s+(?:\w+\s+)?" + MEDICINE + r"\b[^?]{0,120}?\b(?:thinking of|thinking about|planning to|"
        r"going to|want to|decided to)\s+(?:\w+ly\s+)?(?:stop|stopping|quit|quitting|drop|dropping)\s+(?:it|them)\b"
        # a dose of the parent's choosing: "should i give him 1000 tonight to stop another one coming"
        r"|\b(?:should|can|may|could) i give (?:him|her|them|my \w+) (?:\d+|double|extra|more|another)\b"
        # "can i take all 3 together this sunday to catch up" (missed doses made up at once; not tests or scans)
        r"|\btake (?:all|both|the) (?:\d+|two|three|four|missed)\s+(?!(?:tests?|scans?|appointments?|consultations?|"
        r"visits?)\b)(?:\w+\s+)?(?:together|at once|in one go|at one go)\b"
        # "do i restart with the same weekly dose"
        r"|\b(?:restart|re-start|resume)\b[^.?!]{0,40}?\b(?:dose|dosage|tablets?|pills?)\b|\bdo i restart\b"
        # "take it today or wait for next monday?"; "when do I take my Lantus there?"
        r"|\btake (?:it|them) (?:today|now|tonight|tomorrow) or (?:wait|skip)\b"
        # third round: an old strip started again, a child given part of an adult tablet, one pen shared, a
        # different brand carried on, "how many can I take", two remedies given together
        r"|\b(?:still have|left over|leftover|old)\b[^.?!]{0,40}\b(?:strip|tablets|pills|capsules|antibiotics?)\b"
        r"[^?]{0,80}\bcan i (?:just )?(?:start|take|use) (?:those|them|it|these)\b"
        r"|\b(?:can|should|may|could) i (?:just )?(?:give|dissolve|crush|split|break)\b[^.?!]{0,40}\b(?:half|quarter|"
        r"one|a|an|some)\b[^.?!]{0,30}\bfor (?:my|our|the) (?:\d+ ?(?:yr|year|month)s?[- ]old|son|daughter|child|kid|"
        r"baby|toddler)\b"
        r"|\b(?:share|sharing|use|using) (?:one|the same|a single) (?:insulin )?(?:pen|inhaler|syringe) between\b"
        r"|\b(?:gave|given|give) me (?:a |an )?(?:different|another|other)\b.{0,120}?\bcan i (?:just )?(?:start|take|"
        r"use|carry on|continue|switch)\b"
        r"|\bhow many (?:can|should) i take\b"
        r"|\bis it (?:safe|ok|okay|fine|alright) to (?:give|take|have|use) (?:both|them|these|the two) together\b"
        # the pharmacy's substitute started, the course stopped midway, a tablet repeated by the hour
        r"|\b(?:gave|given|give) me\b[^.?!]{0,40}\binstead\b.{0,100}?\b(?:can|should) i (?:start|take|use) "
        r"(?:it|them)\b"
        r"|\bstop (?:it |them )?(?:today|now) or finish\b|\bfinish the (?:strip|course|bottle|pack) first\b"
        r"|\bkeep taking (?:one|two|a tablet|a pill|it|them) every\b|\btake (?:one|two|a tablet|a pill|it) every "
        r"(?:hour|half hour|30 min\w*)\b"
        # a medicine skipped for a day by its brand name: "can i skip my lasix that day" (not a visit or a meal)
        r"|\b(?:can|should|could) i (?:skip|stop|miss|leave out) my\s+(?!(?:appointment|visit|slot|class|session|"
        r"lunch|breakfast|dinner|meal|walk|workout|test|tests|scan|check-?up|follow-?up|consultation|booking|shift|"
        r"physio|turn|reminder)s?\b)\w+\s+(?:that day|on the day|for the day|for a day|today|tomorrow|tonight)\b"
        r"|\bwhen (?:do|should) i take my\s+(?!(?:\w+\s+)?(?:tests?|reports?|appointments?|samples?|scans?|"
        r"x-rays?)\b)\w+",
    ),
    ("medication_decision", r"\bleftover (?:antibiotics|medicines?|medication|pills|tablets)\b"),
    # eighth round (dev split): a dose of one's own choosing said as a figure ("Thyronorm 75 ... can i drop to 50
    # myself", "olanzapine ... he wants to go back to 5 on his own", "sertraline ... can i restart at 100"), an extra
    # half, a second medicine "on top of" the first, how many ml to give a child, a medicine the family would stop
    # ("on Ecosprin and Clopitab ... can we stop the Clopitab"), doses shifted for a fast, a medicine started with
    # the dose left to choose
    (
        "medication_decision",
        r"\b" + ANY_MEDICINE + r"[^?]{0,200}?\b(?:can|could|should|shall|may)\s+(?:i|we|he|she)\s+(?:just\s+)?"
        r"(?:drop|go back|go down|go up|come down|cut (?:it |down |back )?|reduce|lower|increase|raise|restart|"
        r"re-start)\s+(?:it\s+|him\s+|her\s+|them\s+)?(?:down\s+|back\s+|up\s+)?(?:to|at)\s+\d+(?:\.\d+)?\b"
        r"(?!\s*(?:am|pm|a\.m|p\.m|o'?clock|:|%))"
        r"|\b" + ANY_MEDICINE + r"[^?]{0,200}?\b(?:wants?|planning|plans?|going|thinking of|decided)\s+to\s+(?:go back|"
        r"drop|come down|cut down|cut back|reduce|lower|increase|stop|restart)\b[^.?!]{0,30}\bon (?:his|her|my|their) "
        r"own\b"
        # (sixteenth round, dev split: a Durogesic 25 patch, "Can I put a second patch on so it's 50": a patch or a
        # spray put on, applied or used)
        r"|\b(?:can|could|should|shall|may)\s+(?:i|we)\s+(?:give|take|add|put|apply|stick|use)\s+(?:him\s+|her\s+|"
        r"them\s+|myself\s+|my \w+\s+)?(?:an?\s+|one\s+|1\s+)?(?:extra|additional|second)\s+"
        r"(?:half(?!\s+(?:an?\s+)?(?:hour|day|time|session))|dose|tablet|pill|capsule|puff|patch|patches|spray|sachet|"
        r"\d+\s*(?:mg|units?|ml))\b"
        r"|\b(?:can|could|should|may)\s+(?:i|we|he|she)\s+(?:take|have|use|add|give)\s+(?:\w+\s+){0,3}?"
        + ANY_MEDICINE + r"[^.?!]{0,20}?\bon top of\b"
        r"|\bhow (?:many|much)\s+(?:\w+\s+)?(?:pills|tablets|mg|ml|mls|units|capsules|drops|puffs|spoons?|teaspoons?|"
        r"tsp)\s+(?:of\s+(?:\w+\s+){1,2})?(?:can|should|do|shall|must)\s+(?:i|we)\s+(?:give|take|use)\b"
        r"|\b(?:on|taking|takes|prescribed|started)\s+(?:\w+\s+and\s+)?(?!(?:leave|duty|time|holiday|vacation|call|"
        r"board|site|line|hold|track|record|behalf|weekends?|this|that|your|our|their)\b)(?P<on_medicine>\w{4,})\b"
        r"[^?]{0,200}?\b(?:can|could|should|shall|may|do)\s+(?:i|we|he|she|they)\s+(?:just\s+)?(?:stop|quit|skip|halve"
        r"|double|drop)"
        r"\s+(?:the\s+|his\s+|her\s+|my\s+)?(?P=on_medicine)\b"
        # ninth round (dev split): "should i just start 1 tablet a day myself", "shall i start him on half a tablet
        # twice a day", "can i just get Cilacar instead and start it?"
        r"|\b(?:can|should|shall)\s+(?:i|we)\s+(?:just\s+)?(?:start|give|take)\s+(?:him\s+|her\s+|them\s+)?(?:on\s+)?"
        r"(?:\d+|one|two|half|a|an)\s+(?:\w+\s+)?(?:tablets?|pills?|capsules?|doses?)\s+(?:a|per|every|twice|once|each"
        r")\b"
        r"|\bcan (?:i|we) (?:just )?(?:get|buy|take|use)\s+\w+\s+instead\b[^?]{0,30}\b(?:start|take|use)\b"
        # held-out misses of the eighth and ninth rounds, given phrases after the held-out split failed its
        # significance test: "should I start 2 a day", Glycomet's timings shifted for night shifts
        # a sixth-round dev miss the refitted probe no longer catches: "can I just take two GP 1 tablets ... instead?"
        r"|\bcan i (?:just )?take (?:two|2|three|3)\s+(?:\w+\s+){0,2}\d*\s*tablets\b[^?]{0,30}\binstead\b"
        r"|\bshould (?:i|we) (?:start|take|give)\s+(?:\d+|one|two|three|half)\s+(?:a|per|every|each)\s+(?:day|night|"
        r"morning)\b"
        r"|\b(?:" + ANY_MEDICINE + r"|i take \w+)[^?]{0,150}?\bhow (?:should|do|can) (?:i|we)\s+"
        r"(?:shift|adjust|change|move)\s+"
        r"(?:the\s+|my\s+)?(?:timings?|times?|schedule)\b"
        r"|\bhow (?:should|do|can) (?:i|we)\s+(?:shift|adjust|split|space)\b[^?]{0,40}\b(?:doses?|dosage|insulin)\b"
        r"|\bshould (?:i|we|he|she) (?:start|take|begin|give)\s+(?:it|them|this|that)\b[^?]{0,20}\bhow (?:much|many)"
        r"\s*(?:\?|$|should|to take|to give|do i take)",
    ),
    # someone else's prescription, or declining one's own: still the patient's medication decision
    (
        "medication_decision",
        r"\bborrow\s+(?:a few |some |one |two )?(?:of )?(?:hers|his|theirs|(?:her|his|their|my \w+'s)\s+"
        r"(?:\w+\s+)?(?:pills|tablets|medicines?|meds|insulin|inhaler))\b"
        r"|\b(?:take|use|try)\s+(?:a few of |some of )?(?:my|her|his) \w+'s\s+(?:\w+\s+){0,2}(?:pills|tablets|"
        r"medicines?|meds|insulin|inhaler)\b"
        # "my sister was prescribed sertraline ... can i try a few of hers"
        r"|\b(?:take|use|try|borrow|have)\s+(?:a few|some|one|two|a couple|a couple of)\s+of\s+(?:hers|his|theirs)\b"
        r"|\b" + MEDICINE + r"\b[^.?!]{0,60}?\b(?:rather not|don't want to|do not want to|not going to) take "
        r"(?:it|them)\b"
        r"|\b" + MEDICINE + r"\b[^.?!]{0,60}?\b(?:rather|want to|going to|planning to|thinking of) "
        r"(?:stop|stopping|quit|quitting|drop|dropping|come off|coming off|get off|getting off|go off|going off|"
        r"wean (?:myself )?off|weaning (?:myself )?off) (?:it|them)\b"
        # "come off / wean myself off the antidepressants": stopping a medicine, in other words
        r"|\b(?:come|coming|came|get|getting|go|going|wean|weaning)\s+(?:myself\s+|him\s+|her\s+)?off\s+"
        r"(?:the\s+|these\s+|those\s+|my\s+|his\s+|her\s+)?"
        r"(?:(?!(?:price|prices|cost|costs|bill|fee|fees|charge|charges|rate|of)\b)\w+\s+){0,2}" + MEDICINE
        # ... but not money off a medicine's bill ("10% comes off the medicines bill")
        + r"\b(?!\s+(?:bills?|prices?|costs?|fees?|charges?|rates?|counter|list|discount)\b)",
    ),
    (
        "medication_decision",
        r"\b(?:blood sugar|sugar level|sugar reading|glucose|blood pressure|bp)\b.{0,30}\b(?:what should i do|"
        r"what do i do|should i (?:take|inject|go|worry))\b",
    ),
    (
        "acute_symptom",
        r"\b(?:severe|unbearable|terrible|worst|excruciating|intense)\s+(?:\w+\s+)?(?:pain|headache|migraine|cramps?)"
        r"\b",
    ),
    (
        "acute_symptom",
        r"\bhigh fever\b|\bfever (?:of|over|above) (?:10[2-9]|39|40|41)\b|\b(?:leaking|oozing|draining|full of|"
        r"with) pus\b|\bblood in (?:my |the )?(?:stool|urine|vomit|pee|poo|sputum)\b"
        r"|\b(?:coughing|spitting|peeing)\s+(?:up\s+)?blood\b",
    ),
    (
        "acute_symptom",
        r"\b(?:rash|hives|swelling|swollen|itching|itchy|dizzy|dizziness|nausea|"
        r"vomiting)\s+(?:\w+\s+){0,2}(?:after|since)\s+(?:taking|starting|i started|the new|my new|"
        r"the injection|the vaccine)\b",
    ),
    (
        "acute_symptom",
        r"\b(?:my |the )(?:pain|symptoms?|fever|rash|cough|swelling|wound|infection|headache)\s+(?:is|are|has|"
        r"have|keeps?)\s+(?:getting worse|gotten worse|got worse|become worse|worse|spreading|not going away|"
        r"come back)\b",
    ),
    (
        "acute_symptom",
        r"\b(?:heart|pulse) (?:is |has been |keeps )?(?:racing|pounding|skipping)\b"
        r"|\bi (?:have|get|am having|'ve been having|keep getting) palpitations\b"
        r"|\b(?:i've|i have) been (?:vomiting|throwing up)\b"
        r"|\bkeep (?:vomiting|throwing up|fainting)\b",
    ),
    ("acute_symptom", r"\b(?:side effects?|reaction)\s+(?:from|of|to)\s+(?:my|the new|this)\b"),
    # tenth round (dev split): "I take Dianorm 80 ... Should I stop the Dianorm", "or take half", a relative's cream put
    # on a child's face "twice a day", "can I keep taking both as usual", "break the 5 in half", a blood thinner
    # skipped for a tattoo, a tablet from an old prescription started again
    (
        "medication_decision",
        r"\bi take (?P<taken>\w{4,})\b[^?]{0,200}?\b(?:can|could|should|shall|do) (?:i|we) (?:just )?(?:stop|skip|"
        r"halve|double|drop|pause) (?:the |my )?(?P=taken)\b",
    ),
    (
        "medication_decision",
        r"\b(?:my|our)\s+\w+'s\s+[\w-]+\s+(?:cream|ointment|gel|drops|syrup|tablets?|pills?)\b[^?]{0,80}\bis it "
        r"(?:ok|okay|fine|safe|alright) (?:if i|to) (?:just )?(?:put|apply|rub|use|give)\b"
        r"|\bcan (?:i|we) keep (?:taking|giving) (?:both|them both|the two|these two)\b"
        r"|\bis it (?:ok|okay|fine|safe|alright) if i (?:just )?(?:break|cut|split) (?:it|them|(?:the|my|a) "
        r"(?:\d+(?:\.\d+)?|tablets?|pills?|capsules?|dose)|" + ANY_MEDICINE + r") (?:in|into) (?:half|halves|two)\b"
        # (sixteenth round, dev split: "3 weeks on Nexito 10 ... Can I just stop it now?", "I'm on Amaryl 2 mg ... and
        # Glycomet 500 twice a day. Should I skip all of them that day": on a brand for a time, all of them, and "now"
        # ending the question)
        r"|\b(?:" + ANY_MEDICINE + r"|(?:i'?m|i am|he'?s|she'?s|been|(?:days?|weeks?|months?|years?)) on "
        r"(?!(?:leave|duty|call|hold|shift|ward|floor|level|page|route|platform|bed)\b)[a-z]{4,}\s?\d+(?:\.\d+)?\b)"
        r"[^?]{0,150}?\b(?:should|can|shall|could) i (?:just )?(?:skip|stop|pause) (?:it|them|all of them|both(?: of "
        r"them)?)\s*(?:(?:on|for|from|till|until|the day|that day|before|so)\b|now\s*(?:[?.!]|$))"
        r"|\b(?:can|could|should|shall) (?:we|i) (?:just )?(?:start|restart|begin) giving (?:her|him|them) "
        r"(?:\d+|one|half|a tablet|a pill|it)\b",
    ),
    # eleventh round (dev split): a kadha "ok ... to drink with my tablets"; switching a father's insulin to another
    # brand "at the same 18 units"; "a break from the tamoxifen"; an antihistamine syrup to make a child sleep, "how
    # many ml"; "Ecosprin 75 every day ... should i also start it"; "should I skip this Sunday's dose"; an inhaler
    # stopped "for the summer"; "take 2 at night instead of 1"; "one extra Lasix this evening"
    (
        "medication_decision",
        r"\bis it (?:ok|okay|fine|safe|alright) (?:for (?:me|him|her) )?to (?:drink|take|have|mix) (?:it |this |that "
        r"|them )?(?:with|alongside|along with) (?:my|his|her) (?:tablets|pills|medicines?|meds|medication|"
        r"injections?)\b"
        r"|\b(?:can|could|should|shall) (?:we|i) (?:just )?switch (?:(?:him|her|them|papa|mummy|dad|mum|my \w+) )?"
        r"(?:to|from)\b[^?]{0,80}\b(?:units?|mg|mcg|dose|dosage|pens?|tablets?)\b"
        r"|\b(?:take|have) a break from (?:the |my |his |her )?(?:" + ANY_MEDICINE + r"|\w+fen|\w+mab|\w+nib)\b"
        r"|\b(?:syrup|drops|suspension)\b[^?]{0,80}\bhow (?:many|much) ml\b"
        r"|\b(?:takes?|taking|is on|on) [a-z]{4,}\s?\d{1,4}(?:\.\d+)?\s?(?:mg)?\s+(?:every day|daily|a day|once|"
        r"twice|at night|in the morning)\b[^?]{0,100}\b(?:should|can|shall) i (?:also )?(?:start|begin) "
        r"(?:it|them|taking it|taking them)\b"
        r"|\b(?:should|can|shall) i (?:skip|stop|miss|hold|delay|pause) (?:this|that|the|my|next|tomorrow'?s|today'?s|"
        r"\w+day'?s) (?:[\w']+ )?dose\b"
        r"|\b(?:" + MEDICINE + r"|puffs?)\b[^?]{0,200}\b(?:can|could|should|shall) (?:we|i) (?:just )?(?:stop|pause|"
        r"skip) (?:it|them)\b[^?]{0,40}\b(?:and (?:restart|start again|resume)|for the (?:summer|winter|holidays?|"
        r"wedding|trip|exams?))\b"
        r"|\b(?:take|have) (?:\d|two|three|half|an extra|one extra|another) (?:tablets? |pills? |capsules? |puffs? |"
        r"doses? )?(?:at night|in the morning|at bedtime|before bed)\b[^?]{0,20}\binstead of\b"
        r"|\b" + ANY_MEDICINE + r"[^?]{0,200}?\b(?:can|could|should|shall) i take (?:one|an|1|another) extra "
        r"(?!(?:day|night|appointment|slot|session|copy|person|bag|hour|week|month|visit)s?\b)[a-z]{4,}\b",
    ),
    # twelfth round (dev split): a colleague's "leftover strip" of doxycycline and "when do I start it, how long do I
    # continue after coming back"
    (
        "medication_decision",
        r"\b(?:his|her|their|a friend'?s|(?:my )?(?:friend|colleague|neighbou?r|cousin|brother|sister)'?s) "
        r"(?:leftover|left over|left-over|spare|old|extra) (?:strip|tablets|pills|capsules|medicines?|bottle)\b"
        r"[^?]{0,120}"
        r"\b(?:when (?:do|should) i (?:start|begin)|how long (?:do|should) i (?:continue|keep|take)|how (?:many|much) "
        r"(?:do|should) i take)\b",
    ),
    # ... and a nasal spray stopped "all at once or should I cut down"; injections a mother might "stop after 10
    # days"; "cut his lunch Novorapid to 3 units"; "can i stop both this week?"; "switch to his Travatan"; "cut a
    # patch in half"
    (
        "medication_decision",
        r"\b(?:medicines?|tablets?|pills?|sprays?|drops|inhalers?|injections?|insulin|doses?|\d+\s?mg)\b[^?]{0,200}?"
        r"\b(?:stop|quit) (?:it|them|the \w+) (?:all at once|cold turkey|suddenly)\b"
        r"|\b(?:injections?|tablets?|pills?|capsules?|medicines?|doses?|insulin|drops|sprays?)\b[^?]{0,200}?"
        r"\bcan (?:we|i) (?:just )?stop (?:them|it|the (?:injections?|tablets?|pills?|drops|spray))\b"
        r"|\b(?:should|can|shall) i (?:cut|reduce|lower|drop|increase|raise) (?:his|her|my|the)\b[^?]{0,40}\bto "
        r"\d+(?:\.\d+)? ?(?:units?|mg|ml|puffs?)\b"
        r"|\b(?:\d+\s?(?:mg)?|tablets?|pills?|injections?|drops|doses?|medicines?|twice a day|once a day|daily)\b"
        r"[^?]{0,200}?\b(?:can|should|may) i stop (?:both|them both|the two|all (?:of )?them|them all)\b"
        r"(?!\s+(?:the |my |of the )?(?:reminders?|messages?|e-?mails?|sms|notifications?|appointments?|bookings?))"
        r"|\b(?:can|could|should|may) i (?:just )?switch to (?:his|her|their|my \w+'s) [a-z]{4,}\b[^?]{0,60}"
        r"\b(?:drops?|tablets?|pills?|doses?|mg|puffs?|injections?|inhaler|spray|units?)\b"
        r"|\bcan i cut (?:a|the|my|this|one) (?:patch|capsule) in (?:half|two)\b",
    ),
    # thirteenth round (dev split): one more Eliquis "to make up for the missed one"; a relative's strip "left over" and
    # "can we give her one Etoshine daily", a flatmate's tablets "left over ... ok if i take them"; "on Flunil 20 ...
    # thinking I'll just stop from Monday"; "on Folitrax 15 mg ... can I take Combiflam ... along with it"; "is it fine
    # to give her one of my Dulcolax tablets"; a neighbour's advice to "raise it to 10 ... Can we start that from
    # today?"; "150 at night and 75 in the morning"; "Alprax 0.5 at night ... can she also have 2 spoons of Benadryl
    # syrup"
    (
        "medication_decision",
        r"\b(?:doses?|tablets?|pills?|capsules?|injections?|insulin|medicines?)\b[^?]{0,150}?\bto make up for "
        r"(?:the |a |my |his |her |that )?(?:missed|forgotten|skipped) (?:one|dose|tablet|pill|capsule|injection)\b"
        # (sixteenth round, dev split: "half a strip of Montair LC left over ... Can she give him half a tablet at
        # night", relayed for an aunt: a brand's short suffix, and she or he who gives)
        r"|\b(?:strip|bottle|tablets|pills|capsules|tabs)(?: of [a-z]+(?: (?:\d+(?:\.\d+)?|[a-z]{1,3}))?)? (?:left "
        r"over|leftover|spare)\b[^?]{0,200}?\b(?:(?:can|could|should|shall|may) (?:we|i|she|he|they) (?:just )?"
        r"(?:give|start|take)|(?:ok|okay|"
        r"fine|alright|safe) (?:if i|for me to) (?:take|use|start|give))\b(?!\s+(?:it |them )?(?:back|to the|"
        r"for (?:a )?refund|for disposal)\b)"
        r"|\b(?:been on|i'?m on|im on|i am on|been taking) [a-z]{4,}\s?\d+(?:\.\d+)?(?:\s?mg)?\b[^?]{0,200}?"
        r"\bthinking (?:i'?ll|i will|of|about|to) (?:just )?(?:stop|stopping|quit|quitting|drop|dropping|taper\w*)\b"
        r"(?!\s+(?:by|at|in|over)\b)"
        r"|\bon [a-z]{4,}\s?\d+(?:\.\d+)?\s?(?:mg|mcg)\b[^?]{0,150}?\b(?:can|could|should|may) (?:i|we|he|she) "
        r"(?:also )?(?:take|have|give|use)\b[^?]{0,60}\b(?:along with|alongside|together with) (?:it|them|that|this)\b"
        r"|\bis it (?:safe|ok|okay|fine|alright|all right) (?:for me |for us )?to give (?:her|him|them|my \w+|our \w+)"
        r"\b[^.?!]{0,30}?\b(?:one|half|a|an|some|two|\d)\s+(?:of\s+)?(?:my|his|her|our|the)?\s*(?:\w+\s+)?(?:tablets?|"
        r"pills?|capsules?|syrups?|drops|sachets?)\b"
        r"|\b(?:raise|increase|reduce|lower|cut|drop|double|halve|put) (?:it|the dose|(?:her|his|my) dose|(?:her|him) "
        r"(?:up|down)) (?:up |down )?to \d+(?:\.\d+)?\b[^?]{0,100}?\b(?:can|could|should|shall) (?:we|i) (?:just )?"
        r"(?:start|do|try|begin|make) (?:that|this|it|the change)\b"
        r"|\b(?:can|could|should|shall|may) (?:i|we|he|she) (?:take|give|have) (?:him |her |them )?\d+(?:\.\d+)?"
        r"(?:\s?mg)? (?:at night|in the morning|at bedtime|in the evening) and \d+(?:\.\d+)?(?:\s?mg)? (?:at night|"
        r"in the morning|at bedtime|in the evening)\b"
        r"|\b" + ANY_MEDICINE + r"[^?]{0,150}?\b(?:can|could|should|may) (?:she|he|i|we|they) (?:also )?(?:have|take|"
        r"get|be given) (?:\d+|one|two|half|a) (?:spoons?|teaspoons?|tsp|ml|mls) of (?:\w+ )?(?:syrup|" + MEDICINE
        + r")\b",
    ),
    # fourteenth round (dev split): "I'm on Deriphyllin ... gave Ciplox 500 ... ok to take both together?"; an
    # epileptic boy's Levipil on a school trip, "I can skip the morning one"; "Ecosprin, Cardace 5 aur Nexpro 40 ...
    # pees ke ek saath tube se" for a father with a Ryles tube; "I have Saridon in my bag, can I give her one?" for a
    # pupil's headache; "the Risdone 2 makes me slow and sleepy ... can i skip it for the 3 weeks of exams"; "can i
    # split my strip among them"; "folitrax 15 once a week ... can i take it as 2.5 every day instead"
    (
        "medication_decision",
        _rare_part_first(r"\bto (?:take|have|give|use) (?:both|them both|the two|these two|all three|all 3) "
                                r"(?:together|at the same time|at once)\b")
        + r"(?:\b" + ANY_MEDICINE + r"|\b[a-z]{4,}\s?\d{1,4}(?:\.\d+)?\b|\b(?:i'?m|im|i am|he'?s|she'?s) on "
        r"(?!(?:leave|duty|time|holiday|vacation|call|board|site|line|hold|track|record|behalf|weekends?|this|that|"
        r"your|our|their|the|my)\b)[a-z]{4,})[^?]{0,200}?\b(?:ok|okay|safe|fine|alright)\s+(?:for (?:me|him|her) )?to "
        r"(?:take|have|give|use) (?:both|them both|the two|these two|all three|all 3) (?:together|at the same time|at "
        r"once)\b"
        r"|" + _rare_part_first(r"\b(?:skip|miss|leave out|drop|omit) the (?:morning|evening|night|afternoon|"
                                       r"bedtime|second|other) (?:one|dose|tablet|pill|capsule)\b")
        + r"\b" + ANY_MEDICINE + r"[^?]{0,200}?\b(?:(?:i|we) (?:can|could|may|should)|(?:can|could|may|should|shall) "
        r"(?:i|we)) (?:just )?(?:skip|miss|leave out|drop|omit) the (?:morning|evening|night|afternoon|bedtime|second|"
        r"other) (?:one|dose|tablet|pill|capsule)\b"
        # crushed for a feeding tube (not the formula's powder; not a sheet listing which medicines can be crushed,
        # lost and asked for again: "gave us a sheet listing which of his medicines can be crushed, and we've lost it",
        # sixteenth round)
        r"|\b(?:ryles?|ryle'?s|nasogastric|feeding|peg|ng|nose|food) tube\b(?=[^?]{0,250}\b(?:crush\w*|grind\w*|"
        r"powder\w*|pees|pis|dissolv\w*)\b)(?=[^?]{0,250}\b(?:" + MEDICINE + r"|capsules?|goli\w*|dawa\w*|davai\w*)\b)"
        r"(?![^?]{0,250}\b(?:sheet|list|chart|leaflet|printout|card)\s+(?:listing|that lists|which lists|of|showing|"
        r"saying|that says)\s+which\b)"
        r"|" + _rare_part_first(r"\b(?:crush\w*|grind\w*|powder\w*|dissolv\w*)\b")
        + r"\b(?:" + MEDICINE + r")\b[^?]{0,80}\b(?:crush\w*|grind\w*|powder\w*|dissolv\w*)\b[^?]{0,120}\b(?:ryles?|"
        r"ryle'?s|nasogastric|feeding|peg|ng|nose|food) tube\b"
        r"|\b(?:crush\w*|grind\w*|powder\w*|dissolv\w*)\b[^?]{0,80}\b(?:" + MEDICINE + r")\b[^?]{0,80}\b(?:ryles?|"
        r"ryle'?s|nasogastric|feeding|peg|ng|nose|food) tube\b"
        # a complaint, then one given from one's own supply (not "one of the ORS sachets", not a biscuit)
        r"|\b(?:headache|fever|temperature|pain|cramps?|migraine|toothache|cough|cold|sneezing|vomiting|loose motions|"
        r"allergy|acidity)\b[^?]{0,150}?\b(?:can|could|should|may|shall) (?:i|we) (?:just )?give (?:her|him|them|the "
        r"(?:child|kid|boy|girl|student|baby)) (?:one|half|a tablet|a pill|a dose)(?=\s*(?:[?.!,;]|$|of (?:them|these|"
        r"those|mine|my|it)\b|tablets?\b|pills?\b))"
        # a side effect, then a stop of one's own choosing (not yoga three times a week)
        r"|" + _rare_part_first(r"\bmakes? (?:me|him|her)\b")
        + r"(?:\b" + MEDICINE + r"|\b(?!(?:class|grade|std|standard|room|ward|floor|route|gate|block|sector|phase|"
        r"level|chapter|unit|week|year|batch|section|plot|flat|bed|yoga|gym)\b)[a-z]{4,}\s?\d{1,4}(?:\.\d+)?\b(?!\s*(?"
        r":times?|"
        r"days?|hours?|hrs?|mins?|minutes|weeks?|months?|km|kms|sessions?|classes|x)\b))[^?]{0,30}\bmakes? (?:me|him|"
        r"her) (?:\w+ ){0,3}?(?:slow|sleepy|drowsy|dizzy|groggy|tired|nauseous|sick|hungry|weak|numb|restless|dull|"
        r"vomit)\b[^?]{0,150}\b(?:can|could|should|shall|may) (?:i|we) (?:just )?(?:skip|stop|pause|drop|quit|halve|"
        r"reduce|cut|leave) (?:it|them|the dose)\b"
        # one's own course shared out (not the bill, not the prescription shown to another doctor)
        r"|\b(?:split|share|divide|distribute)\s+(?:my|the|this|our|his|her)\s+(?:\w+\s+)?(?:strip|course|tablets|pill"
        r"s|"
        r"capsules|medicines?|syrup|doses|bottle)\s+(?:among|amongst|between|with)\b"
        r"|\b(?:can|could|should|shall) (?:i|we) (?:just )?(?:take|give|have) (?:it|them|the (?:dose|tablets?|pills?)) "
        r"as (?:\d+(?:\.\d+)?|half|a smaller dose|smaller doses)\b(?!\s*(?:instal\w*|emis?|payments?|parts?|sessions?|"
        r"visits?|slots?|rupees|rs)\b)[^.?!]{0,30}\b(?:every|each|per|daily|twice|instead)\b",
    ),
    # fifteenth round (dev split), medication decisions asked as schedules: Augmentin three times a day, "can i just
    # take it twice a day for 7 and a half days instead" (not the physio twice a day); a day's Mixtard, "Can he take
    # all 40 units in the morning before we leave" (not all three tests); a late father's Lantus, "Can she use papa's
    # Lantus pens at the same 14 units" (not his phone, not pens taken back to the pharmacy); "missed my 2pm amox 500
    # ... tk it now" (not the 2pm appointment); Acitrom, "Can we just make it 2.5 mg every single day" (not 2 pm every
    # day); Azithral syrup, "can i mix the 5 ml in his 200 ml milk bottle" (not protein powder); Dytor given daily by
    # mistake, "Should I now skip it for the next 4-5 days to balance it out" (a medicine named first; read from its
    # rare part, as the fourteenth's)
    (
        "medication_decision",
        r"\b(?:can|could|should|shall|may) (?:i|we|he|she) (?:just )?(?:take|give|have) (?:it|them|the (?:tablets?|"
        r"doses?|pills?|capsules?|syrup)) (?:once|twice|thrice|three times|two times|four times|\d times) a day\b"
        r"[^?]{0,60}\binstead\b"
        r"|\b(?:can|could|should|shall|may) (?:i|we|he|she) (?:just )?(?:take|give|inject|have) (?:him |her |them )?"
        r"all (?:\d+ )?(?:units|doses|tablets|of (?:it|them|the (?:units|doses|tablets|insulin)))\s+(?:in the "
        r"morning|at night|at bedtime|at once|together|in one go|in one shot|before (?:we|i|he|she|they) leave)\b"
        r"|\b(?:can|could|should|may) (?:she|he|i|we|they) (?:just )?(?:use|take|have|finish) (?:(?:my|her|his|our|"
        r"their) )?(?!(?:doctor|pharmacy|hospital|clinic|chemist)'s)\w+'s (?:(?:\w+ ){0,2}?(?:pills|tablets|medicines?|"
        # (an insulin pen by its name: not "my dad's pens to sign the forms")
        r"meds|insulin|inhalers?|strips?|drops|syrups?)|(?:\w+ )?(?:insulin|lantus|basalog|toujeo|tresiba|novorapid|"
        r"actrapid|mixtard|humalog|humulin|huminsulin|glaritus|insugen|ryzodeg|wosulin|apidra|levemir) pens?)\b"
        r"(?![^.?!]{0,30}\b(?:back|to the|for (?:return|disposal|refund))\b)"
        r"|\b(?:missed|forgot|skipped)\s+(?:my|the|his|her|today'?s)\s+(?:\d{1,2}\s?(?:am|pm)|morning|night|evening|"
        r"afternoon|noon|bedtime)\s+(?!(?:slot|room|gate|bus|train|token|counter|ward|floor|bay|class|batch|"
        r"appointment|session|meeting|call)\b)[a-z]{3,}\s?\d{2,4}\b[^?]{0,80}\b(?:take|tk|skip|have)\b"
        r"|\b(?:can|could|should|shall) (?:i|we) (?:just )?(?:make|change|keep|put) (?:it|her|him|them|the dose) "
        r"(?:to |at |as )?\d+(?:\.\d+)?\s?(?:mg|mcg|units?|ml)\s+(?:every (?:single )?day|daily|a day|each day|every "
        r"night|every morning)\b"
        r"|\b(?:can|could|should|shall) (?:i|we) (?:just )?(?:mix|dissolve|add|put) (?:the |his |her |this )?(?:\d+"
        r"(?:\.\d+)?\s?ml|dose|syrup|medicine|tablets?|drops|it|them)\b[^.?!]{0,30}\b(?:in|into|with) (?:his|her|the|"
        r"a|my)\s+(?:\d+\s?ml\s+)?(?:milk|bottle|juice|food|feeds?|water|formula|tea|porridge|khichdi)\b"
        r"|" + _rare_part_first(r"\b(?:skip|stop|pause|hold) (?:it|them)\b[^?]{0,40}\bto (?:balance|make up|even|"
                                r"compensate|catch up)")
        + r"\b" + ANY_MEDICINE + r"[^?]{0,400}?\b(?:should|can|shall|could) (?:i|we) (?:now |just |then )?(?:skip|stop|"
        r"pause|hold) (?:it|them)\b[^?]{0,40}\bto (?:balance|make up|even|compensate|catch up)\w*",
    ),
    # sixteenth round (dev split), medication decisions asked as can I split / take both: "Can I split my Concor 5 and
    # take half from tomorrow?" (a brand and its strength split, halved or crushed by the writer: not a bill or an
    # order split between cards); Telma short at the counter and Telmikind given instead, "can I take one Telma and one
    # Telmikind every day till both strips finish" (one of each, every day, with tablets or strips named after it)
    (
        "medication_decision",
        r"\b(?:can|could|should|shall|may) (?:i|we) (?:just )?(?:split|halve|crush) (?:my|the|his|her|a|this) "
        r"(?!(?:bill|payment|order|fee|fees|amount|invoice|emi|class|room|ward|session|slot|booking|appointment|"
        r"delivery|package)\b)[a-z]{4,}\s?\d+(?:\.\d+)?(?:\s?(?:mg|mcg))?\b(?!\s*(?:rs|rupees|%|ways|parts|instal\w*|"
        r"payments?|emis?|months?|days?)\b)"
        r"|\b(?:can|could|should|shall|may) (?:i|we|he|she) (?:just )?(?:take|give|have) (?:one|a|1|half(?: a)?) "
        r"[a-z]{4,}(?: \d+(?:\.\d+)?)? and (?:one|a|1|half(?: a)?) [a-z]{4,}(?: \d+(?:\.\d+)?)? (?:every (?:day|night|"
        r"morning)|each day|daily|a day|together|at once)\b(?=[^?]{0,80}\b(?:strips?|tablets?|pills?|capsules?|doses?|"
        r"mg)\b)",
    ),
    # a dev miss of the fourth round the probe refitted at the sixteenth no longer catches: a colonoscopy's fast and
    # "sugar tablets. should i skip tonight's Jalra M and tomorrow morning's" (tablets named, then one of them by its
    # time and name; read from its rare part, as the fourteenth's; not tomorrow's physio session or dinner)
    (
        "medication_decision",
        _rare_part_first(r"\b(?:should|can|could|shall|may) (?:i|we) (?:just )?(?:skip|miss|stop|hold|leave out) "
                         r"(?:tonight'?s|today'?s|tomorrow'?s|this (?:morning|evening|afternoon)'?s|tomorrow "
                         r"(?:morning|evening|night)'?s)")
        + r"\b(?:tablets?|pills?|medicines?|meds|doses?|insulin|capsules?)\b[^?]{0,150}?\b(?:should|can|could|shall|"
        r"may) (?:i|we) (?:just )?(?:skip|miss|stop|hold|leave out) (?:tonight'?s|today'?s|tomorrow'?s|this (?:morning|"
        r"evening|afternoon)'?s|tomorrow (?:morning|evening|night)'?s) (?!(?:appointment|session|slot|class|walk|meal|"
        r"breakfast|lunch|dinner|snack|tea|coffee|workout|shift|visit|test|scan|physio|yoga|prayers?|party|function|"
        r"meeting|match|game|event|lecture|exam|gym|run|fast|puja|dialysis|therapy|feed)s?\b)[a-z]{4,}\b",
    ),
    # seventeenth round (dev split), medication decisions asked as should I increase / reduce / swap: Seroflo taken
    # 2 four times a day in the smog, "Is it fine to keep going up like that" (a medicine, then fine to keep going up
    # or increasing); Wysolone 20, "Can I drop straight to 5 mg from tomorrow?" (dropped, cut or gone down to a
    # figure in mg or units); "Can I take 2 a day instead of 1 till the wedding" (a number a day instead of another);
    # "If I stop the tablet from Wednesday, will it be safe to have a couple of drinks" (a medicine stopped to be safe
    # for something else)
    (
        "medication_decision",
        _rare_part_first(r"\b(?:ok|okay|fine|safe|alright) (?:for (?:me|him|her) )?to (?:keep (?:going up|increasing|"
                         r"upping|doubling|raising)|go up)\b")
        + r"\b" + ANY_MEDICINE + r"[^?]{0,300}?\b(?:ok|okay|fine|safe|alright) (?:for (?:me|him|her) )?to (?:keep "
        r"(?:going up|increasing|upping|doubling|raising)|go up)\b"
        r"|\b(?:can|could|should|shall|may) (?:i|we|he|she) (?:just )?(?:drop|go|come|cut|jump|step|taper|bring (?:it|"
        r"the dose)) (?:straight |directly |right |all the way )?(?:down )?to (?:\d+(?:\.\d+)?\s?(?:mg|mcg|units?)|"
        r"half a tablet|\d+ (?:tablets? )?(?:a|per) day)\b"
        r"|\b(?:can|could|should|shall|may) (?:i|we|he|she) (?:just )?(?:take|give|have|use) (?:\d+|one|two|three|four|"
        r"half|double)\s+(?:tablets?\s+|pills?\s+|doses?\s+|capsules?\s+|puffs?\s+)?(?:a|per|each|every) (?:day|night|"
        r"morning|evening)\s+instead of (?:\d+|one|two|three|half|the usual)\b"
        r"|\bif (?:i|we|he|she) (?:stop|skip|pause|hold|miss|leave off|come off) (?:the |my |his |her )?" + MEDICINE
        + r"\b[^?]{0,60}?\b(?:will|would|is) it (?:be )?(?:safe|ok|okay|fine|alright) to (?:have|drink|take|do|go|eat)"
        r"\b",
    ),
    # ... Rivotril for Ativan, "Can I just swap, one Rivotril for one Ativan at night"; Eptoin ran out abroad, "Can I
    # just swap to the Dilantin, same 3 a day" (a medicine named, then one swapped for another, or a swap to a brand
    # with its dose after it; not a swap to the evening slot); half of an adult's tablet for a child, "Can I give him
    # half of my Stemetil MD" (half, one or a quarter of my, mum's or dad's brand with its suffix or strength); TB
    # tablets, "Can I stop, or go down to every other day" (a medicine, then every other day or alternate days)
    (
        "medication_decision",
        _rare_part_first(r"\b(?:swap|switch|substitute|change)\b")
        + r"\b" + ANY_MEDICINE + r"[^?]{0,300}?\b(?:can|could|should|shall|may) (?:i|we|he|she) (?:just )?"
        r"(?:swap|switch|"
        r"substitute|change|replace)\b(?:\s+(?:over|it|them))?[\s,]+(?:(?:one|1|a|half(?: a)?) [a-z]{4,}(?: \d+(?:\.\d"
        r"+)?)?"
        r" for (?:one|1|a|the|my|his|her) [a-z]{4,}|to (?:the |a |his |her |my )?[a-z]{4,}(?: \d+(?:\.\d+)?)?\b[^?.]{0"
        r",40}"
        r"\b(?:same (?:dose|\d+|one|two|three)|\d+ (?:a|per) day|twice|once|tablets?|capsules?|mg|dose))"
        r"|\b(?:can|could|should|shall|may) (?:i|we) (?:just )?give (?:him|her|them|my (?:son|daughter|child|kid|baby|"
        r"boy|"
        r"girl)) (?:half|a quarter|quarter|one|a bit|some)(?: of)? (?:my|mum'?s|mom'?s|dad'?s|our|his (?:dad|father|"
        r"mother|mum|mom)'?s|her (?:dad|father|mother|mum|mom)'?s) (?:[a-z]{4,} (?:md|dt|ds|sr|cr|xr|er|od|forte|plus|"
        r"\d+(?:\.\d+)?)|" + MEDICINE + r")\b"
        r"|" + _rare_part_first(r"\b(?:every other day|alternate days?|every second day)\b")
        + r"\b(?:" + MEDICINE + r"|tabs|doses?)\b[^?]{0,250}?\b(?:can|could|should|shall|may) (?:i|we|he|she) "
        r"(?:just )?"
        r"(?:stop\s*(?:it|them)?,?\s+or\s+)?(?:go down to|switch to|take (?:it|them)|give (?:it|them)|have (?:it|them)|"
        r"cut (?:it |them )?(?:down )?to)\s+(?:on\s+)?(?:every other day|alternate days?|every second day)\b",
    ),
    # twentieth round (dev split): "I'm on warfarin and want to start turmeric capsules and fish oil for my knees. OK
    # to start them tomorrow?" (a blood thinner taken, then a supplement or a herbal remedy to start or take, asked as
    # ok, safe or can I; either order); "how much of the 6+ years one can I give him instead?" of a two-year-old (how
    # much or how many of an older age range's, an adult's or another strength's medicine to give a child); "half a
    # course of flucloxacillin left from my leg infection in the summer ... can I just start those?" (a medicine left
    # from an earlier illness, then may the writer start, take or use those; not taken back to the pharmacy)
    (
        "medication_interaction",
        _rare_part_first(_SUPPLEMENT)
        + r"\b(?:on|taking|take|takes|prescribed)\s+(?:\w+\s+)?" + _BLOOD_THINNER
        + r"[^?]{0,150}?\b(?:start|starting|take|taking|try|trying|add|adding|have|having|use|using)\s+(?:\w+\s+){0,2}?"
        + _SUPPLEMENT + r"[^?]{0,100}?(?:\?|$)"
        r"|\b(?:start|starting|take|taking|try|trying|add|adding)\s+(?:\w+\s+){0,2}?" + _SUPPLEMENT
        + r"[^?]{0,80}?\b(?:on|with|while (?:on|taking)|alongside)\s+(?:my\s+|his\s+|her\s+)?" + _BLOOD_THINNER,
    ),
    (
        "medication_decision",
        r"\bhow (?:much|many)\b[^?]{0,30}?\b(?:of\s+)?(?:the|my|our|his|her)\s+(?:\d+\s*\+\s*(?:years?|yrs?)?|\d+ ?-? "
        r"?(?:plus|years? (?:and over|plus|\+))|adult|adults'?|grown-?up|older (?:kids?'?|children'?s?)|junior|big "
        r"kids?'?|\d+\s*(?:mg|ml)|double strength|extra strength|six plus|twelve plus)\s*(?:one|version|strength|"
        r"bottle|syrup|suspension|liquid|ibuprofen|paracetamol|calpol|nurofen|tablets?|kind|type|dose|"
        r"sachets?)?\s*(?:can|could|should|do|shall) (?:i|we) give (?:him|her|them|my \w+|our \w+|the baby)\b"
        r"|" + _rare_part_first(r"\bleft(?: ?over)? (?:from|after|since)\b")
        + r"\b" + MEDICINE + r"\b[^?]{0,40}?\bleft(?: ?over)? (?:from|after|since)\b[^?]{0,200}?\b(?:can|could|should|"
        r"shall|may) (?:i|we|he|she) (?:just )?(?:start|take|use|have|try|finish|give (?:him|her|them))\s+(?:those|"
        r"them|"
        r"these|it|the rest|some|the leftover\w*|what'?s left)\b" + _NOT_AS_DOSED,
    ),
)
