"""The client's part of the built-in games' plugins (``GamePlugin.client``): the per-player columns of the table
pane (``columns(state)``) and the table's facts in force (``info_segments(state)``). A game without such a module
gets its players' plain fields as columns and no facts but dealer and leader."""
