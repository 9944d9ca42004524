"""The declared view from Python: `State.view()` is what the game declares every face
shows of the position (the browser draws the same), for every game."""

import tabula_games
from conftest import ALL_GAMES


def test_every_game_declares_its_view():
    for name in ALL_GAMES:
        game = tabula_games.Game(name)
        state = game.new_initial_state()
        view = state.view()
        assert view["layout"]["kind"] in {"grid", "ring", "track", "heaps", "buttons", "free"}, name
        assert view["labels"] in {"corner", "outside", "row_start", "centre"}, name
        assert [s["name"] for s in view["seats"]] == [i for i in game.info()["seats"]], name
        assert all(s["colour"]["css"].startswith("#") for s in view["seats"]), name
        ids = [c["id"] for c in view["cells"]]
        assert len(ids) == len(set(ids)) > 0, name
        assert "last_move" not in view, name
        # A move that touches the board is the view's last move, on cells of the view.
        for _ in range(20):
            if state.is_terminal():
                break
            state.apply_action(state.legal_actions()[0])
            last = state.view().get("last_move")
            if last:
                assert set(last["cells"]) <= set(ids), name
                break


def test_nim_keeps_an_emptied_heap_in_place():
    game = tabula_games.Game("nim", "heaps=2-3")
    state = game.new_initial_state()
    before = state.view()
    state.apply_action(state.string_to_action("1:2->0"))
    after = state.view()
    assert [c["id"] for c in after["cells"]] == [c["id"] for c in before["cells"]]
    assert len(after["pieces"]) == 3
    assert after["last_move"]["cells"][0] in {c["id"] for c in after["cells"]}
    assert {f["label"]: f["value"]["value"] for f in after["facts"]}["Nim-sum"] == 3
