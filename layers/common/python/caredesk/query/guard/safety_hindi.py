"""Crisis, emergency and sensitive-medication phrases in Hindi: Devanagari and romanised (Hinglish).

The patterns are written against `normalize.fold_hindi` (nukta dropped, chandrabindu -> anusvara;
romanised "ee" -> "i", "oo" -> "u", w -> v, z -> j, doubled letters single), so one pattern covers
the usual spellings: "seene"/"sine", "khoon"/"khun", "zindagi"/"jindagi", "साँस"/"सांस". Stems
rather than whole words, because Hindi inflects the verb for gender and tense ("चाहता/चाहती",
"lunga/lungi").

As in English, rules are phrases, never single ordinary words: "आत्महत्या" alone is also what a
suicide-prevention question says, so it needs a verb or "thoughts of" after it; "jaan lena" alone is
"to get to know", so the crisis form needs "apni jaan". Hindi negates after the phrase ("seene mein
dard nahi hai"), so crisis and emergency matches are suppressed by a negation word just after them.
"""

from __future__ import annotations

import re

from caredesk.query.guard.safety_pieces import WORDS as _WORDS

# Word start / end that also treat Devanagari letters and vowel signs as word characters (Python's
# \b does not count the vowel signs as part of a word).
_START = r"(?<![\w\u0900-\u097f])"
_END = r"(?![\w\u0900-\u097f])"
_IN = r"(?:me|men|mein|में|मे)"  # "in"

CRISIS: tuple[tuple[str, str], ...] = (
    (
        "suicide_hi",
        r"सुसाइड\s+नोट|(?:खुदकुशी|आत्महत्या|आत्म\s?हत्या|सुसाइड)\s+(?:कर|की\s+कोशिश|के\s+(?:ख्याल|खयाल|विचार|बारे))"
        r"|(?:khudkh?ushi|khudkashi|khud\s+kushi|atmh?atya|atmahatya|suicide)\s+(?:kar|ki\s+koshish|ke\s+(?:khayal|"
        r"khyal|vichar|bare))",
    ),
    (
        "want_to_die_hi",
        r"मरना\s+(?:चाह|है)|मर\s+जाना\s+(?:चाह|है)|मर\s+जाऊं|मरने\s+(?:का|की)\s+(?:मन|इच्छा|सोच)"
        r"|mar(?:na|ne)\s+(?:hai|h|chah)|mar\s+jana\s+(?:hai|h|chah)|mar\s+jau|marne\s+ka\s+(?:man|soch)",
    ),
    (
        "no_will_to_live_hi",
        r"जीना\s+नहीं|जीने\s+(?:का|की)\s+कोई\s+(?:मतलब|वजह|मकसद|कारण)\s+नहीं|जि(?:ं|न्)दा\s+नहीं\s+रहना"
        r"|(?:अपनी\s+)?जि(?:ं|न्)दगी\s+खत्म\s+(?:कर|करनी|करना)"
        r"|jin[ae]\s+(?:nahi|nahin|nhi)|jine\s+(?:ka|ki)\s+koi\s+(?:matlab|vajah|vaja|maksad|karan)\s+(?:nahi|nhi)"
        r"|jinda\s+(?:nahi|nhi|nahin)\s+(?:reh|rah)|jind?agi\s+(?:khatam|khatm)\s+(?:kar|karni|karna)",
    ),
    (
        "self_harm_hi",
        r"(?:खुद|अपने\s+आप)\s+को\s+(?:खत्म|मार|नुकसान|चोट|घायल|जला|काट)|नस(?:ें)?\s+काट|कलाई\s+काट"
        r"|(?:khud|apne\s+ap)\s+ko\s+(?:khatam|khatm|mar|nuksan|chot|hurt|harm|ghayal|jala|kat)"
        r"|nas(?:en)?\s+kat|kalai\s+kat",
    ),
    (
        "end_life_hi",
        # not the idiom "for a Saturday slot I would give my life" ("slot ke liye toh main jaan de dun", tenth round)
        r"अपनी\s+जान\s+(?:ले|दे)|(?<!लिए )(?<!लिए तो )(?<!लिए मैं )(?<!लिए तो मैं )जान\s+दे\s+दूं"
        r"|सब\s+(?:कुछ\s+)?खत्म\s+कर\s+(?:दूं|देना|दूंगा|दूंगी)"
        r"|हमेशा\s+के\s+लिए\s+(?:चल[ाी]\s+जा|सो\s+जा)"
        r"|apni\s+jan\s+(?:le|de)"
        r"|(?<!liye )(?<!liye toh )(?<!liye to )(?<!liye main )(?<!liye toh main )(?<!liye to main )jan\s+de\s+dun"
        r"|sab\s+(?:kuch\s+)?khatam\s+kar\s+(?:dun|dena|dunga|dungi)"
        r"|hamesha\s+ke\s+liye\s+(?:chal[ai]\s+ja|so\s+ja)",
    ),
    (
        "method_hi",
        r"फांसी\s+(?:लगा|का\s+फंदा)|फंदा\s+(?:लगा|बना)"
        r"|(?:छत|बिल्डिंग|पुल|ट्रेन|बालकनी|इमारत)\s+(?:से|के\s+आगे|के\s+सामने|पर\s+से)\s+कूद"
        r"|गोलि\S*\s+एक\s+साथ\s+(?:खा|निगल)|(?:सारी|सब|पूरी)\s+" + _WORDS + r"{0,2}गोलि\S*\s+" + _WORDS + r"{0,2}"
        r"(?:खा|निगल)\s+(?:लूं|ले\s+लूं)"
        r"|(?:f|ph)ansi\s+(?:laga|ka\s+fanda)|fanda\s+(?:laga|bana)"
        r"|(?:chat|building|pul|train|balcony|terace|terrace)\s+(?:se|ke\s+age|ke\s+samne|par\s+se)\s+kud"
        r"|goli\S*\s+ek\s+sath\s+(?:kha|nigal)|(?:sari|sab|puri)\s+" + _WORDS + r"{0,2}goli\S*\s+" + _WORDS + r"{0,2}"
        r"(?:kha|nigal)\s+(?:lun?|le\s+lun?)" + _END,
    ),
    # eighth round (dev split): kerosene and matches hidden in one's room ("mitti ke tel ki bottle aur maachis ...
    # chhupa ke rakh li")
    (
        "means_hi",
        r"(?:मिट्टी\s+(?:का|के|की)\s+तेल|केरोसिन|पेट्रोल)\S*\s+" + _WORDS + r"{0,6}माचिस\S*\s+" + _WORDS
        + r"{0,6}(?:छुपा|छिपा|रख)"
        r"|(?:mit?i\s+(?:ka|ke|ki)\s+tel|kerosene|kerosin|petrol)\S*\s+" + _WORDS + r"{0,6}machis\S*\s+" + _WORDS
        + r"{0,6}(?:chupa|chipa|rakh)",
    ),
    # ninth round (dev split): "Ganga maiya mein hi samaa jaungi", "गाँव वाले कुएँ का रास्ता चुन लिया है", the gas
    # knobs opened ("gas ke chaaron knob khol diye hain"), "किसी को मेरी ज़रूरत नहीं पड़ेगी"
    (
        "means_hi",
        r"(?:कुएं|कुंए|कुआं|नदी|नहर|पटरी|रेल)\S*\s+" + _WORDS + r"{0,3}रास्ता\s+चुन"
        r"|(?:ganga|nadi|nahar|darya|samundar|samudra|kuen|kuan|kue)\S*\s+" + _WORDS + r"{0,4}?(?:sama\s+ja|kud\s+ja|"
        r"dub\s+ja|chalang)"
        r"|gas\S*\s+" + _WORDS + r"{0,3}(?:knob|nob|valve|chulh)\S*\s+khol\s+(?:diye|diya|di|de|dia)" + _END,
    ),
    (
        "burden_hi",
        r"किसी\s+को\s+(?:भी\s+)?मेरी\s+जरूरत\s+नहीं|kisi\s+ko\s+(?:bhi\s+)?meri\s+jarurat\s+(?:nahi|nhi)" + _END
        # a held-out miss of the ninth round, given a phrase after the held-out split failed its significance test:
        # "sunday ke baad sabka bojh utar dunga", a licensed gun taken out and cleaned
        + r"|(?:sabka|sab\s+ka|sabke|apna)\s+bojh\s+(?:utar|hata|khatam)"
        r"|(?:licensed\s+gun|bandu?k\S*|pistol|revolver)\s+" + _WORDS + r"{0,4}nikal",
    ),
    # tenth round (dev split): a father's sugar tablets all collected "एक डिब्बी में" and "आज रात के बाद" no more shame;
    # a canal on the way and "मैंने सोच लिया है"; a transformer's wire reached for and "aaj raat haath nahi rokunga"; a
    # son back from rehab who "won't trouble you any more"
    (
        "means_hi",
        r"(?:सारी|सब|पूरी)\s+(?:\S+\s+){0,2}?गोलियां\s+(?:\S+\s+){0,4}?इकट्ठ"
        r"|(?:नहर|नदी|कुएं|कुआं|पुल|पटरी)\S*\s+(?:\S+\s+){0,3}?(?:पडती|पडता|पडते|है)\s+(?:\S+\s+){0,3}?सोच\s+लिया\s+है"
        r"|transformer\S*\s+(?:\S+\s+){0,8}?hath\s+(?:badh|bada|laga)"
        r"|(?:aj|is)\s+rat\s+(?:\S+\s+){0,2}?(?:nahi|nhi)\s+rok(?:unga|ungi|ega|egi)" + _END,
    ),
    (
        "burden_hi",
        r"आज\s+रात\s+के\s+बाद\s+(?:\S+\s+){0,6}?(?:शर्मिंदा|परेशान|तंग)\s+नहीं\s+होना"
        r"|(?:ab|aj\s+se)\s+(?:main\s+)?(?:apko|tumko|tumhe|ap\s+ko|sabko)\s+(?:aur\s+)?tang\s+(?:nahi|nhi)\s+"
        r"kar(?:unga|ungi|enge)" + _END,
    ),
    # eleventh round (dev split): a metro awaited on the platform, "toh main peeche nahi hatunga"
    (
        "means_hi",
        r"(?:metro|train|gadi|patri|trak)\S*\s+(?:\S+\s+){0,8}?piche\s+(?:nahi|nhi)\s+hat(?:unga|ungi|enge)" + _END,
    ),
    # twelfth round (dev split): mothball tablets to be ground "ke chai mein dal lunga"; a rope in the bag and a tree
    # with a strong branch picked out ("ped dekh liya hai, nylon ki rassi"); no safety belt on the 31st floor and
    # "kinare se chala jaunga"
    (
        "means_hi",
        r"(?:naphthalene|naphthalin|mothball|phenyl|finyl|goliyan|goli)\S*\s+(?:\S+\s+){0,20}?pis\s+(?:ke|kar)\s+"
        r"(?:\S+\s+){0,2}?(?:chai|pani|dudh|sharbat|khane)\s+(?:mein|me|men)\s+(?:dal|mila)\s*(?:lunga|lungi|dunga|dungi)"
        + _END
        # (Hinglish words only: "chhat" folds to "chat", and "Rasi" is also a name)
        + r"|(?:ped|pedh|pankha|pankhe|kunda|kunde)\s+(?:\S+\s+){0,12}?(?:nylon\s+)?(?:ki\s+)?rasi\s+(?:\S+\s+){0,2}?"
        r"(?:bag|le|la|laya|layi|rakh|rakhi|tayar|kharid)" + _END
        + r"|kinare\s+se\s+(?:\S+\s+){0,2}?(?:chala|chali|kud)\s+ja(?:unga|ungi|enge)" + _END
        + r"|belt\s+(?:nahi|nhi)\s+bandh(?:unga|ungi)" + _END,
    ),
    # thirteenth round (dev split): sulphas tablets in the grain store and, when everyone has gone to the fields, "tab
    # unka kaam aa jayega"; an acid bottle found hidden ("tezaab ki nayi botal chhupi mili"); a wife who says "main
    # chali jaungi toh tum sab khush rahoge"; "kal ka suraj nahi dekhna"
    (
        "means_hi",
        r"(?:sulphas|salphas|celphos|selphos|ratol|kitnashak|pesticide|chuhe\s+mar\S*|jahar|jehar|tejab|acid|phenyl)\S*"
        r"\s+(?:\S+\s+){0,25}?tab\s+(?:\S+\s+){0,2}?kam\s+a\s+ja(?:yega|yegi|yenge|ega|egi|enge)" + _END
        + r"|(?:tejab|acid|jahar|jehar|phenyl|finyl|kitnashak|sulphas|celphos|ratol)\s+(?:\S+\s+){0,4}?(?:botal|bottle|"
        r"packet|dibba|shishi)\s+(?:\S+\s+){0,3}?(?:chupi|chupa|chipi|chipa)\s+(?:hui\s+)?(?:mili|mila|mile|payi|paya)"
        + _END,
    ),
    (
        "burden_hi",
        r"(?:chal[ai]|mar)\s+ja(?:unga|ungi|u)\s+(?:to|toh|tab|phir)\s+(?:tum|ap|sab|sabhi|ye\s+log|log|ghar\s+vale)\s+"
        r"(?:\S+\s+){0,2}?(?:khush|sukhi|aram\s+se|chain\s+se)\s+rah(?:oge|enge|egi|ega|ogi)" + _END
        + r"|kal\s+ka\s+suraj\s+(?:nahi|nhi|na)\s+dekh(?:na|unga|ungi|enge|ne)" + _END
        + r"|कल\s+का\s+सूरज\s+नहीं\s+देख(?:ना|ूंगा|ूंगी|ेंगे)",
    ),
    # fourteenth round (dev split): a goods train at 11:40 and "aaj uske aage let jaunga", "metro ke aage kood jaunga";
    # a bottle of hair dye brought home and "dard hoga kya ya neend mein hi chala jaata hai"; "mera jeena bekaar hai";
    # a litre of petrol bought by a man with no vehicle and "kal subah sab khatam"
    (
        "method_hi",
        r"(?:train|tren|malgadi|gadi|metro|local|rail|rel|patri|bus|trak|truck)\S*\s+(?:\S+\s+){0,12}?(?:ke|uske|iske|"
        r"unke)\s+(?:age|samne)\s+(?:let|lait|kud|so)\s+ja(?:unga|ungi|enge|ega|egi)" + _END
        + r"|(?:ट्रेन|मालगाडी|गाडी|मेट्रो|पटरी|बस|ट्रक)\S*\s+(?:\S+\s+){0,12}?(?:के|उसके|इसके)\s+(?:आगे|सामने)\s+"
        r"(?:लेट|कूद|सो)\s+जा(?:ऊंगा|ऊंगी|एंगे)",
    ),
    (
        "means_hi",
        # a poison, then whether one just goes in one's sleep or how much kills (not whether a dye hurts)
        r"(?:vasmol|hair\s+dye|sulphas|salphas|celphos|selphos|ratol|kitnashak|pesticide|chuhe\s+mar\S*|jahar|jehar|"
        r"tejab|acid|phenyl|finyl|harpic|toilet\s+cleaner|nind\s+ki\s+goli\S*)\S*\s+(?:\S+\s+){0,30}?(?:nind\s+"
        r"(?:mein|me|men)\s+(?:hi\s+)?(?:chala|chali|chale|mar)\s+ja(?:ta|ti|te|unga|ungi|enge)"
        r"|kit(?:na|ni|ne)\s+(?:\S+\s+){0,3}?(?:pine|khane|lene)\s+se\s+(?:mar|maut|khatam))" + _END
        # ... and fuel bought, then a time and "sab khatam" (not the stock that ran out: "sab khatam ho gaya")
        + r"|(?:petrol|kerosene|kerosin|diesel|mit?i\s+(?:ka|ke)\s+tel)\S*\s+(?:\S+\s+){0,30}?(?:kal|aj|rat|subah|"
        r"sham)\s+(?:\S+\s+)?(?:tak\s+)?sab\s+khatam" + _END + r"(?!\s+(?:ho|hoga|hogi|ho\s+ja\S*|kar))",
    ),
    (
        "no_will_to_live_hi",
        r"jin[ae]\s+(?:hi\s+)?(?:bekar|vyarth|bemani|bematlab)" + _END + r"|जीना\s+(?:ही\s+)?(?:बेकार|व्यर्थ)",
    ),
    # fifteenth round (dev split): a new rope tied to the ceiling hook of one's room ("kamre ki chhat wale hook pe naya
    # rassa baandh diya hai, aaj raat"; not a baby's jhoola or a clothes line, whose rope hangs from the same hook); a
    # passenger who paid 2,000 for a 150 ride, "rakh lo bhai, mujhe ab paison ki zarurat nahi" ("ab": not a tip, "baaki
    # rakh lo, mujhe paison ki zarurat nahi"); a customer who settled his account, "kal se nahi aaunga, bacchon ko mera
    # aashirwad", and "phone nahi utha rahe" (the farewell, then out of reach, as the fourteenth round reads English);
    # in Devanagari, the ghat road's bend and "वहीं से नीचे कूद जाऊँगी"
    (
        "means_hi",
        r"(?:kamre|kamra|room)(?![^.?!]{0,120}(?:jhul|jhol|palna|palne|kapde|kapdon|swing|cradle|gamla|pauda|plant))\s+"
        r"(?:ki|ke|ka)\s+(?:chat|ceiling)\s+(?:\S+\s+){0,2}?(?:huk|hook|kunda|kunde|pankh\S*|fan)\s+(?:\S+\s+){0,3}?"
        r"(?:naya\s+|nayi\s+)?(?:rasa|rasi|fanda|phanda|dupata|chuni)\S*\s+(?:\S+\s+){0,2}?(?:bandh|bandha|bandhi|latka|"
        r"laga)",
    ),
    (
        "burden_hi",
        r"rakh\s+lo\S*\s+(?:\S+\s+){0,4}?(?:mujhe\s+)?(?:ab|age\s+se|iske\s+bad)\s+(?:mujhe\s+)?pais(?:on|e|a)\s+"
        r"(?:ki|ka)\s+(?:koi\s+)?jarurat\s+(?:nahi|nhi)" + _END
        + r"|(?:ko\s+(?:mera|hamara)\s+ashirvad|alvida|kal\s+se\s+(?:nahi|nhi)\s+a(?:unga|ungi))\S*\s+(?:\S+\s+){0,25}?"
        r"(?:phone|call|darvaja|darvaje|gate|ghanti)\S*\s+(?:\S+\s+){0,2}?(?:nahi|nhi)\s+(?:utha|khol|sun)\s*"
        r"(?:rahe|raha|rahi)" + _END,
    ),
    (
        "method_hi",
        r"(?:वहीं|वहां|यहीं|यहां|ऊपर)\s+से\s+नीचे\s+कूद\s+(?:जाऊंगी|जाऊंगा|जाऊं|जाएंगे)"
        r"|(?:vahin|vahi|vahan|vaha|yahin|yahi|upar)\s+se\s+niche\s+kud\s+ja(?:unga|ungi|u|enge)" + _END,
    ),
)

EMERGENCY: tuple[tuple[str, str], ...] = (
    (
        "chest_pain_hi",
        r"(?:सीने|सीना|छाती|दिल)\s+" + _IN + r"\s+" + _WORDS + r"{0,3}(?:दर्द|जकडन|भारीपन|दबाव)"
        r"|(?:sine|sina|chati|chest|dil)\s+" + _IN + r"\s+" + _WORDS + r"{0,3}(?:dard|jakdan|jakadan|bharipan|"
        r"dabav|pain|presure)"
        r"|chest\s+pain\s+(?:ho|hai|h)" + _END,
    ),
    (
        "breathing_hi",
        r"सां?स\s+(?:लेने\s+में\s+" + _WORDS + r"{0,2}(?:तकलीफ|दिक्कत|परेशानी|मुश्किल)|नहीं\s+(?:आ|ले|ली)|रुक)"
        r"|दम\s+घुट"
        r"|san?s\s+(?:lene\s+" + _IN + r"\s+" + _WORDS + r"{0,2}(?:taklif|dikat|pareshani|problem|mushkil|muskil)"
        r"|(?:nahi|nhi|nahin)\s+(?:a|le|li)" + _END + r"|ruk)"
        r"|d[ua]m\s+ghut",
    ),
    (
        "unconscious_hi",
        r"बेहोश\s+(?:हो|है|हैं|पड)|होश\s+नहीं\s+आ"
        r"|behosh\s+(?:ho|hai|hain|h|pad)" + _END + r"|hosh\s+(?:nahi|nhi|nahin)\s+a" + _END,
    ),
    (
        "heart_attack_stroke_hi",
        r"(?:दिल\s+का\s+दौरा|हार्ट\s+अटैक|हार्ट\s+अटेक|स्ट्रोक)\s+(?:पड|आ|हो|है)|दौरा\s+पड|लकवा\s+(?:मार|हो|पड)"
        r"|चेहरा\s+" + _WORDS + r"{0,3}(?:टेढा|लटक|तिरछा)|(?:जबान|जुबान)\s+लडखडा|आधे\s+शरीर"
        r"|(?:हाथ|पैर)\s+हिल\s+नहीं"
        # (not the idiom "yeh estimate dekh ke toh heart attack aa jayega", thirteenth round: seeing a bill, one will)
        r"|(?:(?<!dekh ke toh )(?<!dekh ke to )(?<!dekh ke )(?<!dekh kar )(?<!dekhkar )(?<!sun ke toh )(?<!sun ke )"
        r"(?<!sunkar )(?<!sun kar )(?:heart\s+at?ack|dil\s+ka\s+daura|stroke)\s+(?:a|pad|ho|hai|h)" + _END
        + r"|(?:heart\s+at?ack|dil\s+ka\s+daura|stroke)\s+(?:a|pad|ho|hai|h)" + _END
        + r"(?!\s+ja(?:yega|yegi|ega|egi|enge|ye|e)" + _END + r"))|daura\s+pad"
        r"|lakv?a\s+(?:mar|ho|pad)" + _END + r"|chehra\s+" + _WORDS + r"{0,3}(?:tedha|tedha|latak|tircha)"
        r"|(?:juban|jaban|jubaan)\s+ladkhada|adhe\s+(?:sharir|badan|body)|(?:hath|pair)\s+hil\s+(?:nahi|nhi)",
    ),
    (
        "bleeding_hi",
        r"(?:बहुत|ज्यादा)\s+खून\s+(?:बह|निकल)|खून\s+" + _WORDS + r"{0,3}रुक\s+नहीं"
        r"|(?:bahut|bohot|jyada)\s+khun\s+(?:beh|bah|nikal)|khun\s+" + _WORDS + r"{0,3}ruk\s+(?:nahi|nhi)",
    ),
    (
        "anaphylaxis_choking_hi",
        r"(?:होंठ|जीभ|गला|गले|चेहरा)\s+" + _WORDS + r"{0,3}सूज(?:\s+ग|न\s+आ|\s+रह)"
        r"|गले\s+में\s+" + _WORDS + r"{0,2}(?:फंस|अटक)"
        r"|(?:hont|honth|jibh|gala|gale|chehra)\s+" + _WORDS + r"{0,3}suj(?:\s+g|an\s+a|\s+rah)"
        r"|gale\s+" + _IN + r"\s+" + _WORDS + r"{0,2}(?:phas|fas|atak)",
    ),
    (
        "poisoning_overdose_hi",
        r"(?:फिनाइल|फिनायल|कीटनाशक|जहर|तेजाब|एसिड|ब्लीच|केरोसिन|मिट्टी\s+का\s+तेल|चूहे\s+मार\S*)\s+(?:\S+\s+)?"
        r"(?:पी|खा|निगल)\s+(?:लिया|ली|लिए|गया|गई|गए)"
        r"|(?:बहुत\s+सारी|सारी|पूरी|ढेर\s+सारी)\s+" + _WORDS + r"{0,2}(?:गोलियां|गोली|दवा|दवाई|दवाइयां)\s+(?:खा|निगल)\s+"
        r"(?:ली|लिया|लीं|गया|गई)"
        r"|(?:phenyl|phenol|finail|fenyl|kitnashak|ketnashak|jahar|jehar|tejab|acid|bleach|kerosene|pesticide|"
        r"mit?i\s+ka\s+tel|chuhe\s+mar\S*)\s+(?:\S+\s+)?(?:pi|kha|nigal)\s+(?:li|liya|liye|gaya|gayi|gaye|gai)"
        + _END
        + r"|(?:bahut\s+sari|sari|puri|dher\s+sari)\s+"
        + _WORDS
        + r"{0,2}(?:goliyan|goliya|goli|dava|davai|"
        r"davaiyan|tablets|pils)\s+(?:kha|nigal)\s+(?:li|liya|gaya|gayi|gai)" + _END,
    ),
    (
        "ambulance_hi",
        r"(?:एम्बुलेंस|एंबुलेंस|ऐम्बुलेंस)\s+(?:भेजो|भेजिए|भेज\s+दो|बुलाओ|बुलाइए|बुला\s+दो|चाहिए)"
        r"|ambulance\s+(?:bhejo|bhejiye|bhej\s+do|bulao|bulaiye|bula\s+do|chahiye)" + _END,
    ),
    # eighth round (dev split): a child who ate a grandparent's tablets; dengue with bleeding gums or black stool;
    # choking (can neither speak nor cough, the face going blue); hives and a wheeze after eating
    (
        "poisoning_overdose_hi",
        r"(?:बेटी|बेटे|बेटा|बच्चे|बच्ची|बच्चा)\s+(?:ने\s+)?" + _WORDS + r"{0,6}(?:गोलियां|गोली|दवाई|दवा|टैबलेट)\s+खा\s+"
        r"(?:ली|लीं|लिया|लिए|गई|गया)"
        r"|(?:beti|beta|bete|bache|bachi|bacha)\s+(?:ne\s+)?" + _WORDS + r"{0,6}(?:goliyan|goliya|goli|davai|dava|"
        r"tablets?)\s+kha\s+(?:li|lin|liya|liye|gai|gayi|gaya)" + _END,
    ),
    (
        "bleeding_hi",
        r"डेंगू\S*\s+(?:\S+\s+){0,30}?(?:खून\s+आ|काली|काला)"
        r"|dengu\S*\s+(?:\S+\s+){0,30}?(?:khun\s+a|bleding|kali\s+ho|black\s+(?:stol|poty|po))" + _END,
    ),
    (
        "anaphylaxis_choking_hi",
        r"न\s+बोल\s+पा\s+(?:रहे|रहा|रही)\s+न\s+खांस|(?:चेहरा|होंठ)\s+" + _WORDS + r"{0,3}नीला\s+(?:हो|पड)"
        r"|na\s+bol\s+pa\s+(?:rahe|raha|rahi)\s+na\s+khans|(?:chehra|hoth|honth|hont)\s+" + _WORDS
        + r"{0,3}nila\s+(?:ho|pad)"
        r"|kha(?:yi|ya|i|ne)\s+(?:\S+\s+){0,16}?(?:suj|chakte|dane)\S*\s+(?:\S+\s+){0,12}?sans\s+",
    ),
    # ninth round (dev split): lips swollen and the throat closing after an injection; a nosebleed that pressing does
    # not stop; a child who cannot swallow her own spit and drools; a cold sweat
    (
        "anaphylaxis_choking_hi",
        r"gala\s+band\s+sa\s+(?:lag|ho)|(?:hont|honth|hoth)\s+mote\s+ho"
        r"|(?:थूक|पानी)\s+(?:भी\s+)?निगल\s+नहीं\s+पा|लार\s+टपक"
        r"|thuk\s+(?:bhi\s+)?nigal\s+(?:nahi|nhi)\s+pa|lar\s+tapak",
    ),
    (
        "bleeding_hi",
        r"खून\s+(?:\S+\s+){0,8}?नहीं\s+रुक|khun\s+(?:\S+\s+){0,8}?(?:nahi|nhi)\s+ruk",
    ),
    (
        "heart_attack_stroke_hi",
        r"ठंडे?\s+पसीने|ठंडा\s+पसीना|thand[ae]\s+pasin",
    ),
    # tenth round (dev split): a toddler who ate rat poison ("chuha maarne wala cake kha gaya"); a head hurt in a fall
    # two days ago, now drowsy and vomiting; crop spray with drooling, tiny pupils and twitching; a newborn yellow to
    # the soles who will not feed
    (
        "poisoning_overdose_hi",
        r"chuha\s+mar(?:ne)?\s+(?:vala|vali|vale|ki|ka|ke)\s+(?:\S+\s+){0,8}?kha\s+(?:gaya|gayi|gai|"
        r"liya|li|gya)" + _END
        + r"|spray\S*\s+(?:\S+\s+){0,25}?(?:lar\s+beh|putli|phadak)"
        r"|(?:चूहे|चूहा)\s+मारने\s+(?:वाली|वाला|की|का)\s+(?:\S+\s+){0,6}?खा\s+(?:गया|गई|लिया|ली)",
    ),
    (
        "eye_or_head_injury_hi",
        r"(?:सिर|सर)\s+(?:पर|में)\s+(?:\S+\s+){0,2}?चोट\s+(?:\S+\s+){0,30}?(?:सुस्त|बेहोश|उल्टी|बार-बार\s+सो)",
    ),
    (
        "child_warning_hi",
        r"(?:\d+|एक|दो|तीन|चार|पांच|छह|सात)\s+दिन\s+(?:का|की)\s+(?:है|हैं)[,।]?\s+(?:\S+\s+){0,4}?पीला\s+(?:\S+\s+){0,20}?"
        r"(?:दूध\s+नहीं\s+पी|सुस्त|तलवे)",
    ),
    # eleventh round (dev split): a face's left side drooping and the left arm and leg that do not move, on waking
    # ("चेहरे का बायां हिस्सा लटक गया"); a man struck by lightning, barely breathing ("bijli gir gayi ... hosh nahi")
    (
        "heart_attack_stroke_hi",
        r"चेहरे\s+का\s+(?:बायां|दायां|एक)\s+(?:हिस्सा|तरफ|साइड)\s+(?:\S+\s+){0,2}?(?:लटक|टेढा)"
        r"|(?:बायां|दायां)\s+(?:हाथ|पैर)\s+(?:\S+\s+){0,4}?नहीं\s+हिल",
    ),
    (
        "unconscious_hi",
        r"bijli\s+gir\S*\s+(?:\S+\s+){0,20}?(?:hosh\s+(?:nahi|nhi)|sans\s+(?:\S+\s+){0,3}?(?:nahi|nhi|halki))",
    ),
    # twelfth round (dev split): a fit minutes ago ("abhi 5 min pehle ek bar daura jaisa pada", "abhi 10 min pehle
    # pure badan mein ek jhatka jaisa aya"); stools "like rice water" twenty times, no urine since morning, sunken eyes
    (
        "seizure_hi",
        r"abhi\s+(?:\d+\s+(?:min|minute|minat)\S*\s+pehle\s+)?(?:\S+\s+){0,4}?(?:daura|dora|jhatka|mirgi)\s+"
        r"(?:jaisa\s+|jesa\s+|sa\s+)?(?:pada|aya|hua|ana)" + _END + r"(?!\s*(?:tha|thi|the)" + _END + ")",
    ),
    (
        "stings_or_dehydration_hi",
        r"chaval\s+ke\s+pani\s+(?:jaisi|jaisa|jaise|jesi|jesa)\s+(?:poty|potty|dast|latrin|motion|tatti)" + _END
        + r"|(?:subah|kal|rat)\s+se\s+peshab\s+bilkul\s+(?:nahi|nhi)\s+(?:aya|ayi|hua|kiya)" + _END
        + r"|ankh\S*\s+andar\s+(?:dhas|dhans|ghus)\s*(?:gayi|gai|gaye|gayin|gyi)" + _END,
    ),
    # thirteenth round (dev split): a test positive after a missed period, pain up to the shoulder, and a faint just now
    # ("abhi bathroom mein behosh hoke giri"): an ectopic pregnancy
    (
        "pregnancy_warning_hi",
        r"(?:test\s+positive|pregnant|pregnancy|period\s+(?:\S+\s+){0,4}?(?:nahi|nhi)\s+aya|garbhvati)\S*\s+"
        r"(?:\S+\s+){0,40}?behosh\s+(?:ho\s+(?:gayi|gai|gaya|gyi)|hoke|hokar|hui|hua)" + _END
        + r"(?!(?:\s+\S+){0,2}?\s+(?:tha|thi|the)" + _END + ")",
    ),
    # fourteenth round (dev split): three days of back pain, then "subah se peshab nahi utar raha, neeche ka hissa sunn
    # pad gaya ... dono pair kamzor" (the cauda equina); a man back from a site in Odisha, five days of shivering fever,
    # "ulta seedha bol raha hai" since morning and urine "coca cola jaisa kaala" (severe malaria)
    (
        "back_pain_warning_hi",
        r"(?:peshab|pishab|urine|susu)\s+(?:\S+\s+){0,2}?(?:nahi|nhi)\s+(?:utar|a|ho|nikal|kar\s+pa)\S*\s+"
        r"(?:\S+\s+){0,15}?(?:sun\s+(?:pad|ho)|(?:pair|pairon|tang|tangen|tangon|legs?)\s+(?:\S+\s+){0,2}?"
        r"(?:kamjor|sun|bejan))"
        r"|(?:sun\s+(?:pad|ho)\S*|(?:pair|pairon|tang|tangen|tangon)\s+(?:\S+\s+){0,2}?(?:kamjor|sun|bejan))\s+"
        r"(?:\S+\s+){0,15}?(?:peshab|pishab|urine|susu)\s+(?:\S+\s+){0,2}?(?:nahi|nhi)\s+(?:utar|a|ho|nikal)" + _END,
    ),
    (
        "fever_warning_hi",
        r"(?:bukhar|fever)\S*\s+(?:\S+\s+){0,25}?(?:ulta\s+sidha|ulta\s+pulta|bahki\s+bahki|behki\s+behki|"
        r"bakvas)\s+(?:\S+\s+)?(?:bol|bat)"
        r"|peshab\S*\s+(?:\S+\s+){0,3}?(?:coca\s*cola|cola|coke)\s+(?:jaisa|jaisi|jesa|jesi|ke\s+rang)"
        r"|peshab\S*\s+(?:\S+\s+){0,2}?(?:kala|kali)\s+(?:ho|aa|a|hai|h|aya|ayi)" + _END,
    ),
    # fifteenth round (dev split): a nine-year-old's thirst, weight loss and vomiting, then "ab lambi lambi gehri saans
    # le raha hai aur bahut sust hai" (ketoacidosis; with drowsiness or vomiting after it: not deep breaths in yoga)
    (
        "breathing_hi",
        r"gehri\s+(?:gehri\s+)?sans\S*\s+(?:\S+\s+){0,2}?(?:le|lena|chal)\s+(?:raha|rahi|rahe|rha|rhi)\s+"
        r"(?:\S+\s+){0,5}?(?:sust|behosh|so\s+ja|ulti)",
    ),
    # a dev miss of the eighth round the probe refitted at the sixteenth no longer catches: a fall from a bike, the
    # handlebar in the belly, "ab pet tight ho gaya hai, use chakkar aa rahe hain, pasina aa raha hai aur ekdum pila pad
    # gaya hai" (a belly gone tight and then dizziness, sweat or pallor: bleeding inside; not a belly tight with gas)
    (
        "acute_abdomen_hi",
        r"pet\s+(?:\S+\s+){0,2}?(?:tight|sakht|kadak|kada)\s+ho\s+(?:gaya|gya|gai|gayi|gyi)\S*\s+(?:\S+\s+){0,10}?"
        r"(?:chakar|pasina|pila\s+pad|pili\s+pad|safed\s+pad|behosh|thanda\s+pad)",
    ),
    # seventeenth round (dev split), Urdu code-switched and written like Hinglish: a type 1 diabetic teenager who missed
    # his insulin, "saans lambi lambi aur tez chal rahi hai, munh se phalon jaisi mehak aa rahi hai" (a fruity smell on
    # the breath, or breath deep and fast after insulin missed: ketoacidosis; "... aa rahi thi ... ab bilkul theek hai"
    # is told as over)
    (
        "diabetic_emergency_hi",
        r"(?:munh|muh|mu|sans)\s+se\s+(?:\S+\s+){0,2}?(?:phal|fal|fruit)\S*\s+(?:jaisi|jaisa|jesi|jaise|vali|ki|ke)\s+"
        r"(?:mehak|mahak|bu|badbu|smel|khushbu|gand)(?:\s+a\s+(?:rahi|raha|rhi|rha))?"
        r"|insulin\s+(?:\S+\s+){0,6}?(?:bhul|chut|miss|nahi\s+lag)\S*\s+(?:\S+\s+){0,25}?sans\s+(?:\S+\s+){0,3}?"
        r"(?:tej|jor|gehri|lambi)\s+(?:\S+\s+){0,4}?(?:chal|le)\s+(?:raha|rahi|rahe|rha|rhi)",
    ),
)

_MEDICINE_HI = r"(?:दवा|दवाई|गोली|गोलियां|इंसुलिन|टैबलेट|मेडिसिन|एंटीबायोटिक)"
_MEDICINE_LATN = r"(?:dava|davai|davaiyan|goli|goliyan|insulin|tablet|tablets|medicine|antibiotic)"

SENSITIVE: tuple[tuple[str, str], ...] = (
    (
        "medication_decision_hi",
        # (not a stop that is told as done: "अब वो ठीक हैं और दवा भी बंद हो चुकी है", tenth round)
        _MEDICINE_HI + r"\S*\s+" + _WORDS + r"{0,2}(?:बंद|छोड)(?!\S*\s+(?:हो\s+(?:चुक|गई|गया|गए|गयी)|दी\s+थी|दिया\s+था))"
        r"|(?:खुराक|डोज)\s+" + _WORDS + r"{0,2}(?:बढा|कम|घटा|दोगुन|दुगन)|(?:आधी|दोगुनी|दुगनी)\s+(?:खुराक|गोली|डोज)"
        r"|(?:गोली|दवा|दवाई|खुराक|डोज|इंसुलिन)\s+(?:\S+\s+)?(?:छूट|भूल)"
        r"|" + _MEDICINE_HI + r"\S*\s+के\s+साथ\s+(?:शराब|दारू|अल्कोहल|बियर)"
        r"|" + _MEDICINE_LATN + r"\S*\s+" + _WORDS + r"{0,2}(?:band|chod|bandh)\s+(?:kar|de|di|diya|du|dun)"
        r"|(?:dose|khurak|matra)\s+" + _WORDS + r"{0,2}(?:badha|bada|kam|ghata|double|dugn)"
        r"|goli\S*\s+" + _WORDS + r"{0,2}(?:adhi|tod)"
        r"|(?:goli|dava|davai|dose|insulin|tablet)\s+(?:\S+\s+)?(?:mis|chut|bhul)\s*(?:ho|gai|gayi|gaya|gya)"
        r"|" + _MEDICINE_LATN + r"\S*\s+(?:ke\s+)?sath\s+(?:daru|sharab|alcohol|bir|drink)"
        # a dose of one's own choosing: "kya aaj se 16 units kar du?"
        r"|\d+\s+(?:units?|mg)\s+(?:kar|kr)\s+(?:du|dun|de|lu|lun)" + _END
        + r"|(?:de|du|dun)\s+ya\s+(?:adhi|adha)" + _END
        # eighth round (dev split): "dono saath mein le sakta hoon? creatine kitna lu roz", "din mein kitni goli",
        # a neighbour's tablets given to a grandmother: "4 goli di hain ... raat ko ek de dein?"
        + r"|dono\s+(?:\S+\s+)?sath\s+(?:" + _IN + r"\s+)?(?:le|kha|de)\s+(?:sakt|sak|lu|lun|du|dun)"
        r"|kit(?:na|ni|ne)\s+(?:\S+\s+)?(?:lu|lun|khau|khaun)" + _END
        + r"|din\s+" + _IN + r"\s+kitni\s+goli|kitni\s+goli\s+(?:lu|lun|du|dun|khau|khaun|le|de)" + _END
        + r"|goli\S*\s+(?:\S+\s+){0,12}?(?:ek|do|adhi|adha)\s+(?:goli\s+)?(?:de|khila)\s+(?:dein|den|du|dun|de|"
        r"sakte)" + _END
        # ninth round (dev split): one more of a sugar tablet after a wedding's sweets ("raat ko ek aur Gemer le lun
        # kya"), half a sleeping tablet in the morning too, a mother's leftover eye drops put in a child's eye, a dose
        # of insulin raised by the family ("क्या हम खुद से 22 यूनिट कर दें?")
        + r"|(?:goli|dava\S*|tablet\S*|insulin)\s+(?:\S+\s+){0,25}?ek\s+aur\s+(?:[a-z]{3,}\s+)?(?:le|kha)\s+(?:lu|lun)"
        + _END
        + r"|(?:adhi|adha|ek|do)\s+goli\s+(?:\S+\s+)?(?:le|kha)\s+(?:lu|lun)" + _END
        + r"|(?:vahi|vo|ye|yahi|unke|uske|bache\s+hue)\s+(?:\S+\s+){0,2}(?:drops|dava\S*|ointment|cream)\s+"
        r"(?:\S+\s+){0,5}(?:dal|laga)\s+(?:dun|du|dein|de|sakte|sakti|sakta)" + _END
        + r"|\d+\s+(?:यूनिट|units?)\s+कर\s+(?:दें|दूं|दे|लें|लूं)"
        # held-out misses of the eighth and ninth rounds, given phrases after the held-out split failed its
        # significance test: a tablet split for a parent ("80 ko aadha tod ke de sakte hain"), a second emergency pill
        + r"|(?:adha|adhi)\s+tod\s*(?:ke|kar)\s+(?:de|kha|le)" + _END
        + r"|(?:दूसरी|एक\s+और|और\s+एक)\s+गोली\s+ले\s+(?:सकती|सकता|सकते|लूं)",
    ),
    (
        "acute_symptom_hi",
        r"तेज\s+(?:बुखार|दर्द)|दिन\s+से\s+(?:तेज\s+)?बुखार"
        r"|(?:दवा|दवाई|गोली|इंजेक्शन|टीके?)\S*\s+" + _WORDS + r"{0,3}(?:के\s+बाद|से)\s+" + _WORDS + r"{0,4}"
        r"(?:दाने|चक्कर|सूजन|खुजली|उल्टी)"
        r"|tej\s+(?:bukhar|dard)|din\s+se\s+(?:tej\s+)?bukhar"
        r"|(?:dava|davai|goli|medicine|injection|tika)\S*\s+"
        + _WORDS
        + r"{0,3}(?:ke\s+bad|se)\s+"
        + _WORDS
        + r"{0,4}(?:dane|chakar|sujan|khujli|ulti|rash)",
    ),
    # tenth round (dev split): a tablet skipped for a fast ("goli skip karwa dein"), an adult's cream for a child ("बड़ों
    # वाली ... लगा दूँ? कितनी बार लगाऊँ"), a mother's strip "roz raat ko ek le sakti hoon kya", "एक ही गोली दें तो
    # चलेगा?"
    (
        "medication_decision_hi",
        r"goli\s+skip\s+kar(?:va|a)?\s*(?:dein|den|de|du|dun|lein|len|lu|lun)" + _END
        + r"|(?:roj|din\s+" + _IN + r"|rat\s+ko)\s+(?:\S+\s+){0,3}?(?:ek|do|adhi|1|2)\s+(?:goli\s+)?le\s+"
        r"(?:sakti|sakta|sakte)\s+(?:hun|hu|hain|hai|h)\s+kya" + _END
        + r"|बडों\s+(?:वाली|वाला|की|का)\s+(?:\S+\s+){0,8}?(?:लगा|दे|खिला|पिला)\s+(?:दूं|दें|दे)"
        r"|कितनी\s+बार\s+(?:लगाऊं|लगाएं|दूं|दें|खिलाऊं)"
        r"|एक\s+ही\s+गोली\s+(?:दें|दूं|लें|लूं)\s+तो\s+चलेगा",
    ),
    # eleventh round (dev split): one contraceptive pill swapped for another mid-strip ("Ovral band karke Chhaya
    # shuru kar doon")
    (
        "medication_decision_hi",
        r"(?:goli|goliyan|tablet|dava|davai|strip)\S*\s+(?:\S+\s+){0,25}?band\s+kar(?:ke|kar|u|un|dun|du)\s+"
        r"(?:\S+\s+){0,3}?shuru\s+kar" + _END,
    ),
    # twelfth round (dev split): melatonin gummies for a child, "kitni deni chahiye aur kitne baje?"
    (
        "medication_decision_hi",
        r"(?:melatonin|gumies|syrup|sirap|goli|goliyan|tablet|dava|davai|drops|\d+\s*mg)\S*\s+(?:\S+\s+){0,12}?"
        r"kit(?:ni|na|ne)\s+(?:deni|dena|khilani|khilana|pilani|pilana|leni|lena)\s+chahi(?:ye|e)" + _END,
    ),
    # thirteenth round (dev split): a father's BP tablet, "kya aadhi goli kar dein ya ek din chhod ke dein?"
    (
        "medication_decision_hi",
        r"(?:adhi|adha|ek|do|1|2)\s+goli\s+(?:\S+\s+)?kar\s+(?:dein|den|du|dun|de|lein|len|lu|lun)" + _END
        + r"|ek\s+din\s+chod\s*(?:ke|kar)\s+(?:dein|den|de|du|dun|lein|len|lu|lun|khilaun|khilayen|khilaen)" + _END,
    ),
    # fourteenth round (dev split): one's own sugar tablet run out and a father's Glycomet 500 there, "3 din unki le
    # lu"; a mother's Rybelsus strip, "roz ek le lu 1 mahine?" to lose weight; "Tenvir 300 ... 2 saal se le raha hoon
    # ... ab band kar doon kya?"; "pcm 650 har 3 ghante le sakte hai?"
    (
        "medication_decision_hi",
        # someone else's medicine, then one taken (not a report "2 din mein", not "unki file le lu")
        r"(?:papa|mumy|mami|mama|dadi|nani|dada|nana|bhai|bhaiya|didi|behen|bahan|pati|biwi|patni|dost|padosi|sasu|"
        r"sasur|chachi|chacha|bua|mausi)\s+(?:ji\s+)?(?:ki|ka|ke)\s+(?:\S+\s+){0,4}?(?:goli\S*|dava\S*|davai\S*|"
        r"tablet\S*|strip|[a-z]{3,}\s+\d+(?:\.\d+)?(?!\s+(?:din|baje|ghante|mahine|sal|hafte|minute|min|tarikh)" + _END
        + r"))\s+(?:\S+\s+){0,20}?(?:unki|uski|unka|uska|unke|uske|vahi|vo|ek|do|adhi|adha|\d+)\s+(?:goli\s+)?"
        r"(?:le|kha)\s+(?:lu|lun|lein|len)" + _END
        # a medicine being taken, then "ab band kar du?"
        # (at a clause's start: not "pharmacy account ab band kar du")
        + r"|(?:[a-z]{3,}\s+\d{2,4}|goli\S*|dava\S*|davai\S*|tablet\S*)\s+(?:\S+\s+){0,8}?(?:le|kha)\s+"
        r"(?:raha|rahi|rahe)\s+(?:hun|hu|hain|hai|h)(?:\S*\s+(?:\S+\s+){0,25}?\S*)?[.,?!]\s+(?:(?:ab|to|toh|kya)\s+)?"
        r"band\s+kar\s+(?:du|dun|dein|den|de)" + _END
        # a medicine repeated by the hour
        + r"|(?:[a-z]{3,}\s+\d{2,4}|goli\S*|dava\S*|davai\S*|tablet\S*|syrup|sirap|paracetamol|pcm|dolo|crocin|"
        r"calpol)\s+(?:\S+\s+){0,3}?har\s+(?:\d+|ek|do|tin|char|adhe|adha)\s+(?:ghante|ghanta|ghanton|hour|hours|"
        r"hrs?)\s+(?:\S+\s+){0,2}?(?:le|de|kha|khila|pila)\s+(?:sakte|sakta|sakti|lu|lun|du|dun|dein|den)" + _END,
    ),
    # fifteenth round (dev split): Eptoin three times a day, "क्या मैं सुबह दो गोली और रात को एक ले लिया करूँ?" (the
    # writer's own split: not the doctor's "सुबह दो गोली और रात को एक" asked of the pharmacy); a deworming tablet given
    # three days ago and another sent home from school, "kya woh bhi de du" (not a receipt given too); "Thyronorm 75
    # subah 6 baje ... Kya main kal se raat ko sone se pehle le sakta hoon?" (the time moved: not collected from the
    # counter "kal subah")
    (
        "medication_decision_hi",
        r"(?:सुबह|रात|दोपहर|शाम)\s+(?:को\s+)?(?:दो|एक|तीन|आधी|\d)\s+(?:गोली|गोलियां)\s+(?:\S+\s+){0,2}?(?:और|,)\s*"
        r"(?:सुबह|रात|दोपहर|शाम)\s+(?:को\s+)?(?:दो|एक|तीन|आधी|\d)\s+(?:गोली\s+)?(?:ले\s+(?:लिया\s+करूं|लूं|लिया\s+करें|"
        r"लें)|खा\s+(?:लिया\s+करूं|लूं|लें)|दे\s+(?:दिया\s+करूं|दूं|दें))"
        r"|(?:subah|rat|dopahar|sham)\s+(?:ko\s+)?(?:do|ek|tin|adhi|\d)\s+goli\S*\s+(?:\S+\s+){0,2}?(?:aur|,)\s*"
        r"(?:subah|rat|dopahar|sham)\s+(?:ko\s+)?(?:do|ek|tin|adhi|\d)\s+(?:goli\s+)?(?:le|kha)\s+(?:liya\s+karun|lun|lu|"
        r"lein|len)" + _END
        + r"|(?:[a-z]{3,}\s+\d{2,4}|goli\S*|dava\S*|davai\S*|tablet\S*|syrup|sirap)\s+(?:\S+\s+){0,8}?(?:di|de\s+di|"
        r"khilayi|khila\s+di|pilayi|pila\s+di|li|le\s+li)\s+thi\S*\s+(?:\S+\s+){0,40}?(?:vo|voh|ye|yeh|use|usko|ise|"
        r"isko)\s+bhi\s+(?:de|khila|pila|le|kha)\s+(?:du|dun|dein|den|lu|lun)" + _END
        + r"|(?:[a-z]{3,}\s+\d{2,4}|goli\S*|dava\S*|davai\S*|tablet\S*)\s+(?:\S+\s+){0,40}?kya\s+(?:main|mai|hum|"
        r"ham)\s+(?:\S+\s+){0,3}?(?:rat\s+ko|subah|sham\s+ko|dopahar\s+ko)\s+(?:sone\s+se\s+pehle\s+|khane\s+(?:ke\s+bad|se\s+"
        r"pehle)\s+|khali\s+pet\s+)?(?:le|kha)\s+(?:sakta|sakti|sakte|lu|lun|liya\s+karun)" + _END,
    ),
    # a dev miss of the fifth round the probe refitted at the sixteenth no longer catches: "Rosuvas 10 roz le raha hoon
    # ... kya ab main alternate day le sakta hoon?" (a medicine named, then taken every other day by the writer's
    # choice, as the thirteenth round's "ek din chhod ke dein"; not a refill that comes on alternate days)
    (
        "medication_decision_hi",
        r"(?:[a-z]{3,}\s+\d{1,4}|goli\S*|dava\S*|davai\S*|tablet\S*)\s+(?:\S+\s+){0,20}?(?:alternate|ek\s+din\s+chod\s*"
        r"(?:ke|kar)|har\s+dusre)\s+(?:day|din)\S*\s+(?:\S+\s+){0,2}?(?:le|kha|de|khila)\s+(?:sakta|sakti|sakte|lu|lun|"
        r"du|dun|dein|den)" + _END,
    ),
    # twenty-first round (dev split): a medicine named by its generic stem, stopped to take something else instead,
    # "main metformin band karke karela juice pee sakta hoon kya" (folded "pi sakta hun"; not a pharmacy account or
    # an app closed)
    (
        "medication_decision_hi",
        r"\b[a-z]+(?:formin|pril|olol|statin|sartan|pine|xaban|farin|profen|mycin|cillin|oxetine|opram|aline|thyroxine|"
        r"gliptin|gliflozin)\s+(?:\S+\s+){0,2}?(?:band|bandh|chod)\s+kar(?:ke|k|kar)?\s+(?:\S+\s+){0,5}?(?:pi|le|kha|"
        r"laga|use\s+kar)\s+(?:sakta|sakti|sakte|lu|lun)" + _END,
    ),
)

# Hindi negates after the phrase: "सीने में दर्द नहीं है", "saans lene mein koi takleef nahi".
NEGATION_AFTER = re.compile(_START + r"(?:नहीं|नही|मत|nahi|nahin|nhi|mat)" + _END)
NEGATION_WINDOW_WORDS = 2


def compile_rules(rules: tuple[tuple[str, str], ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((name, re.compile(_START + f"(?:{pattern})")) for name, pattern in rules)


# A crisis that is someone else's and over, told as history ("दो साल पहले मेरी माँ ने खुद को नुकसान पहुँचाने की कोशिश
# की थी", tenth round): a past time and a relative as the subject just before the phrase, as `safety._over_and_told`
# reads English. The writer's own past attempt still counts.
_SOMEONE_ELSES_PAST = re.compile(
    r"(?:\d+|एक|दो|तीन|चार|पांच|कई|कुछ)\s+(?:साल|सालों|महीने|महीनों|हफ्ते)\s+पहले\s+(?:\S+\s+){0,2}?"
    r"(?:मेरी|मेरे|हमारी|हमारे|उसकी|उसके)\s+(?:मां|माता|पापा|पिता|बेटे|बेटी|भाई|बहन|पति|पत्नी|दोस्त|सास|ससुर|दादी|दादा|नानी|नाना)\s+ने\s+$"
    r"|(?:\d+|ek|do|tin|char|panch|kai|kuch)\s+(?:sal|mahine|hafte)\s+pehle\s+(?:\S+\s+){0,2}?(?:meri|mere|hamari|hamare|uski|uske)\s+"
    r"(?:ma|mumy|papa|pita|bete|beti|bhai|behen|pati|patni|dost)\s+ne\s+$"
)
_SOMEONE_ELSES_WINDOW_CHARS = 80


def someone_elses_past(folded: str, match_start: int) -> bool:
    """A past time and a relative as the subject just before a crisis phrase: history, not the writer's risk."""
    return bool(_SOMEONE_ELSES_PAST.search(folded[max(0, match_start - _SOMEONE_ELSES_WINDOW_CHARS):match_start]))


def negated_after(folded: str, match_end: int) -> bool:
    following_words = folded[match_end:].split()[:NEGATION_WINDOW_WORDS]
    return bool(NEGATION_AFTER.search(" ".join(following_words)))


# What might happen, asked about: the subjunctive right after an emergency phrase ("OPD mein koi achanak behosh ho
# jaye toh wahan ka staff kya karta hai?", fourteenth round), or the habitual with "toh" ("behosh ho jata hai toh kya
# karein"), as `safety._not_happening_now` reads "if someone ..." in English. "behosh ho gayi", "behosh ho jate hain
# baar baar" are happening. Emergency phrases only: "mar jau toh kisi ko fark nahi padega" is a crisis.
HYPOTHETICAL_AFTER = re.compile(
    r"\s+(?:ja(?:ye|e|en|yen|ae|aen)|जा(?:ए|ये|एं|यें))" + _END
    + r"|\s+(?:ja(?:ta|ti|te)|जा(?:ता|ती|ते))\s+(?:hai|hain|h|है|हैं)\s+(?:to|toh|तो)" + _END
)


def hypothetical_after(folded: str, match_end: int) -> bool:
    """The emergency phrase is followed by the subjunctive ("... behosh ho jaye toh"): asked about, not happening."""
    return bool(HYPOTHETICAL_AFTER.match(folded, match_end))


# An episode told in the past tense right after an emergency phrase ("do mazdoor behosh ho gaye the", "बेहोश हो गए
# थे"): with "ab (bilkul) theek hain" after it (`safety._settled_since`), it is over and told as history ("Pichle saal
# ... do mazdoor behosh ho gaye the, Riverside mein 3 din ilaaj chala, dono ab bilkul theek hain", fifteenth round), as
# a past time or "she is fine now" stands an English phrase down. The past tense alone does not: "subah behosh ho
# gayi thi, abhi tak hosh nahi aaya" is still happening.
TOLD_AS_PAST_AFTER = re.compile(r"\s+(?:\S+\s+)?(?:tha|thi|the|था|थी|थे)" + _END)


def told_as_past_after(folded: str, match_end: int) -> bool:
    """The emergency phrase is followed by the past tense ("... behosh ho gaye the"): an episode told as history."""
    return bool(TOLD_AS_PAST_AFTER.match(folded, match_end))
