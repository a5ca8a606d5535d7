"""Example pairs for the demo: openings of public-domain works of the project's corpus (Gutenberg prose, State of
the Union)."""

EXAMPLES = [
    # 10 + 10 words (curriculum stage 1)
    [
        "It is a truth universally acknowledged, that a single man",
        "Fellow-Citizens of the Senate and House of Representatives: I embrace",
    ],
    # 25 + 25 words (stage 2)
    [
        "Emma Woodhouse, handsome, clever, and rich, with a comfortable home and happy disposition, seemed to "
        "unite some "
        "of the best blessings of existence; and had",
        "Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do: "
        "once or twice she",
    ],
    # unequal lengths: 21 + 10 words
    [
        "Call me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, "
        "and nothing",
        "The family of Dashwood had long been settled in Sussex.",
    ],
]
