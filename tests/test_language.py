"""engram.language: the one definition of each text rule, and every user reads it from there."""

from engram.core import frames, names, notes, ranking
from engram.language import framing
from engram.language.framing import speaker, topic
from engram.language.normalise import fold, plain, squeeze, visible
from engram.language.quotes import straighten
from engram.language.stem import name_key, stem
from engram.language.stopwords import STOP_WORDS
from engram.safety import views


def test_fold_is_the_compatibility_caseless_match():
    assert fold("ＡＢＣ Straße") == "abc strasse"
    assert fold("e\u0301") == fold("é") != fold("e")


def test_plain_drops_invisible_characters_and_straightens_quotes_and_dashes():
    assert plain("“Ｆｕｌｌ‑width” it’s\u200b – ‹ok›") == "\"Full-width\" it's - 'ok'"
    assert visible("a\u00adb\u202ec\ufeff") == "abc"
    assert straighten("«x» ‘y’ —") == "\"x\" 'y' -"
    assert squeeze("  a \t b\n") == "a b"


def test_stem_folds_plural_and_verb_endings_but_keeps_three_letters():
    assert [stem(w) for w in ("stories", "drinking", "walked", "boxes", "cats", "children", "bus", "is")] == [
        "story", "drink", "walk", "box", "cat", "child", "bus", "is"]
    assert name_key("Melanie’s") == name_key("melanie's") == "melanie"


def test_every_user_reads_the_one_definition():
    assert ranking.STOP_WORDS is STOP_WORDS and names.STOP_WORDS is STOP_WORDS
    assert frames.STOP == STOP_WORDS | frames.CHANGE_WORDS
    assert ranking.name_key is names.name_key is name_key
    assert frames.stem is stem
    assert notes.normalise_text("“a”\u00a0—\tb\u200b") == squeeze(plain("“a”\u00a0—\tb\u200b")) == '"a" - b'
    assert views.plain is plain
    assert ranking.ASKING is framing.ASKING and ranking.ASKING_VERBS is framing.ASKING_VERBS


def test_topic_takes_a_requests_framing_out_of_what_is_searched():
    asked = ("Can you list the order in which I brought up different aspects of my app's deployment across our"
             " conversations, in order? Mention ONLY and ONLY five items.")
    assert topic(asked) == "my app's deployment?"
    assert topic("Could you give me a brief summary of the budget talks throughout all of our sessions?") == \
        "the budget talks?"
    assert topic("Would you please walk me through the key aspects of the release plan in three sentences?") == \
        "the release plan?"


def test_topic_keeps_a_question_without_framing_byte_for_byte():
    for plain_question in ("What did I order for lunch?", "Which  classical musicians does Melanie enjoy?",
                           "Tell me about our internal CLI.", "When is the order due?", "summary of Q3 sales"):
        assert topic(plain_question) == plain_question


def test_topic_keeps_the_whole_question_when_framing_is_all_there_is():
    assert topic("Can you list them in order?") == "Can you list them in order?"


def test_speaker_reads_whose_earlier_words_a_question_asks_for():
    assert speaker("What profession did I mention I work in?") == "user"
    assert speaker("When did I say I met Laura?") == "user"
    assert speaker("How did you recommend structuring my essay?") == "assistant"
    assert speaker("What had you suggested for the API limits?") == "assistant"
    for no_one in ("What steps would you suggest I take?", "Have I ever worked with Flask?",
                   "What did you tell me and what did I say?", "What does Melanie paint?"):
        assert speaker(no_one) is None
    assert speaker("Can you list the order in which I brought up the parts of my app?") == "user"
    assert speaker("Which of the tools that you recommended did I install?") == "assistant"
    assert speaker("Which of the tools that you recommended did I mention installing?") is None  # both: no one
