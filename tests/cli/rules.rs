//! The Laws of Chess, one fixture file per theme under fixtures/rules.
//!
//! Games are looked up by their `Event` tag. Ply numbers count half-moves
//! from the start position (ply 0); line numbers are those of the fixture.

use serde_json::Value;

use crate::util::{
    assert_error, assert_no_termination, assert_no_warning, assert_termination, assert_valid,
    assert_warning, final_board, game, game_in, games, records, warning_kinds,
};

fn rules(file: &str, event: &str) -> Value {
    game_in(&format!("rules/{file}"), event)
}

// ---------------------------------------------------------------- checkmate

#[test]
fn checkmate_by_black_ends_the_game() {
    let g = rules("checkmate.pgn", "Fool's mate");
    assert_eq!(g["index"], 1);
    assert_eq!(g["line"], 1);
    assert_eq!(g["variant"], "chess");
    assert_valid(&g, 4);
    assert_termination(&g, "checkmate", 4);
    assert_eq!(g["moves_after_end"], 0);
    assert_eq!(g["result"], "0-1");
    assert_eq!(g["result_marker"], "0-1");
    assert_eq!(g["result_consistent"], true);
    assert!(g["threefold_ply"].is_null());
    assert!(g["fifty_ply"].is_null());
    assert_eq!(g["final_fen"], "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(g["warnings"], serde_json::json!([]));
}

#[test]
fn checkmate_by_white_ends_the_game() {
    let g = rules("checkmate.pgn", "Scholar's mate");
    assert_eq!(g["index"], 2);
    assert_eq!(g["line"], 11);
    assert_valid(&g, 7);
    assert_termination(&g, "checkmate", 7);
    assert_eq!(g["result_consistent"], true);
    assert_eq!(
        g["final_fen"],
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    assert_eq!(g["warnings"], serde_json::json!([]));
}

#[test]
fn checkmate_from_a_fen_start_position() {
    let g = rules("checkmate.pgn", "Back-rank mate from a FEN");
    assert_valid(&g, 1);
    assert_termination(&g, "checkmate", 1);
    assert_eq!(g["final_fen"], "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1");
}

#[test]
fn promotion_that_mates_is_checkmate() {
    let g = rules("checkmate.pgn", "Mate by promotion");
    assert_valid(&g, 1);
    assert_termination(&g, "checkmate", 1);
    assert_eq!(g["result_consistent"], true);
    assert_eq!(g["final_fen"], "8/8/8/8/8/5k2/8/3q1K2 w - - 0 2");
    // `1... d1=Q#`: a Black first move from a FEN is correctly numbered.
    assert_eq!(g["warnings"], serde_json::json!([]));
}

// ---------------------------------------------------------------- stalemate

#[test]
fn stalemate_ends_the_game_loyd_ten_moves() {
    let g = rules("stalemate.pgn", "Loyd's ten-move stalemate");
    assert_valid(&g, 19);
    assert_termination(&g, "stalemate", 19);
    assert_eq!(g["result_consistent"], true);
    assert_eq!(final_board(&g), "5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR");
}

#[test]
fn stalemate_of_a_cornered_king() {
    let g = rules("stalemate.pgn", "Queen stalemates a cornered king");
    assert_valid(&g, 1);
    assert_termination(&g, "stalemate", 1);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn stalemate_of_white_by_black() {
    let g = rules("stalemate.pgn", "Black stalemates White");
    assert_valid(&g, 1);
    assert_termination(&g, "stalemate", 1);
    assert_eq!(g["result_consistent"], true);
}

// ---------------------------------------------------- insufficient material

#[test]
fn king_against_king_is_insufficient_material() {
    let g = rules("insufficient_material.pgn", "K v K after capturing the last queen");
    assert_valid(&g, 1);
    assert_termination(&g, "insufficient_material", 1);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn king_and_bishop_against_king_is_insufficient_material() {
    let g = rules("insufficient_material.pgn", "K+B v K");
    assert_valid(&g, 1);
    assert_termination(&g, "insufficient_material", 1);
}

#[test]
fn king_and_knight_against_king_is_insufficient_material() {
    let g = rules("insufficient_material.pgn", "K+N v K");
    assert_valid(&g, 1);
    assert_termination(&g, "insufficient_material", 1);
}

#[test]
fn bishops_on_the_same_colour_are_insufficient_material() {
    let g = rules("insufficient_material.pgn", "K+B v K+B, bishops on the same colour");
    assert_valid(&g, 1);
    assert_termination(&g, "insufficient_material", 1);
}

#[test]
fn bishops_on_opposite_colours_are_not_insufficient_material() {
    let g = rules("insufficient_material.pgn", "K+B v K+B, bishops on opposite colours");
    assert_valid(&g, 4);
    assert_no_termination(&g);
}

#[test]
fn two_knights_against_king_are_not_insufficient_material() {
    let g = rules("insufficient_material.pgn", "K+N+N v K");
    assert_valid(&g, 4);
    assert_no_termination(&g);
}

#[test]
fn knight_against_knight_is_not_insufficient_material() {
    let g = rules("insufficient_material.pgn", "K+N v K+N");
    assert_valid(&g, 4);
    assert_no_termination(&g);
}

#[test]
fn insufficient_material_in_the_start_position_ends_at_ply_zero() {
    let g = rules("insufficient_material.pgn", "Insufficient from the start");
    assert_valid(&g, 0);
    assert_termination(&g, "insufficient_material", 0);
    assert_eq!(g["moves_after_end"], 0);
    assert_eq!(g["result_consistent"], true);
    assert_warning(&g, "empty_game", 85);
}

// ------------------------------------------------------ threefold repetition

#[test]
fn threefold_repetition_counts_the_start_position() {
    let g = rules("threefold.pgn", "Knights out and back");
    assert_valid(&g, 8);
    assert_eq!(g["threefold_ply"], 8);
    // A claimable draw does not end the game.
    assert_no_termination(&g);
}

#[test]
fn castling_rights_make_positions_different() {
    // Plies 1, 5, 9 have the same pieces but only ply 1 has White's
    // kingside castling right: ignoring rights would give 9. The first
    // true third occurrence is after 7. Nf3 (plies 5, 9, 13).
    let g = rules("threefold.pgn", "Same pieces, different castling rights");
    assert_valid(&g, 13);
    assert_eq!(g["threefold_ply"], 13);
}

#[test]
fn ep_square_not_capturable_counts_as_same_position() {
    // After 1. e4 no Black pawn can take en passant, so the position at
    // ply 1 is the same as at plies 5 and 9.
    let g = rules("threefold.pgn", "En passant square that cannot be used");
    assert_valid(&g, 10);
    assert_eq!(g["threefold_ply"], 9);
}

#[test]
fn ep_capture_that_is_legal_makes_the_position_different() {
    // After 2... d5 exd6 e.p. is legal: ply 4 differs from plies 8 and 12
    // (counting it would give 12); plies 5, 9, 13 repeat.
    let g = rules("threefold.pgn", "En passant capture that is legal");
    assert_valid(&g, 13);
    assert_eq!(g["threefold_ply"], 13);
}

#[test]
fn ep_capture_illegal_because_of_a_pin_counts_as_same_position() {
    // bxc6 e.p. would expose the king on a5 to the rook on h5 (both
    // pawns leave the rank): only pseudo-legal, so plies 1, 5, 9 repeat.
    let g = rules("threefold.pgn", "En passant capture pseudo-legal but pinned");
    assert_valid(&g, 9);
    assert_eq!(g["threefold_ply"], 9);
    assert_eq!(g["final_fen"], "4k3/8/8/KPp4r/8/8/8/8 w - - 8 6");
}

#[test]
fn ep_square_in_the_fen_that_nobody_can_use_counts_as_same_position() {
    // The FEN says e3, but no Black pawn can capture there: the start
    // position recurs at plies 4 and 8.
    let g = rules("threefold.pgn", "FEN with an en passant square nobody can use");
    assert_valid(&g, 8);
    assert_eq!(g["threefold_ply"], 8);
    assert_eq!(g["final_fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 8 5");
}

// ------------------------------------------------------- fivefold repetition

#[test]
fn fivefold_repetition_ends_the_game() {
    let g = rules("fivefold.pgn", "Knights out and back five times");
    assert_valid(&g, 16);
    assert_termination(&g, "fivefold_repetition", 16);
    assert_eq!(g["threefold_ply"], 8);
    assert_eq!(g["moves_after_end"], 0);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn fivefold_repetition_from_a_fen_start_position() {
    let g = rules("fivefold.pgn", "Kings shuffle to a fivefold repetition");
    assert_valid(&g, 16);
    assert_termination(&g, "fivefold_repetition", 16);
    assert_eq!(g["threefold_ply"], 8);
}

// ---------------------------------------------------------- fifty-move rule

#[test]
fn fifty_move_rule_claimable_at_the_hundredth_half_move() {
    let g = rules("fifty_move.pgn", "Clock reaches 100 half-moves");
    assert_valid(&g, 4);
    assert_eq!(g["fifty_ply"], 2);
    assert_no_termination(&g);
    assert_eq!(g["final_fen"], "4k3/8/8/8/8/8/8/R3K3 w - - 102 62");
}

#[test]
fn fifty_move_rule_claimable_at_ply_zero_from_the_fen_clock() {
    let g = rules("fifty_move.pgn", "Clock already 100 in the FEN");
    assert_valid(&g, 2);
    assert_eq!(g["fifty_ply"], 0);
    assert_no_termination(&g);
}

#[test]
fn fifty_move_rule_not_claimable_when_the_hundredth_half_move_mates() {
    let g = rules("fifty_move.pgn", "Hundredth half-move mates");
    assert_valid(&g, 1);
    assert!(g["fifty_ply"].is_null(), "{g}");
    assert_termination(&g, "checkmate", 1);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn pawn_move_resets_the_fifty_move_count() {
    let g = rules("fifty_move.pgn", "Pawn move resets the clock");
    assert_valid(&g, 4);
    assert!(g["fifty_ply"].is_null(), "{g}");
    assert_eq!(g["final_fen"], "4k3/8/8/8/8/P7/R7/4K3 w - - 3 62");
}

// ---------------------------------------------------- seventy-five-move rule

#[test]
fn seventyfive_move_rule_ends_the_game() {
    let g = rules("seventyfive_moves.pgn", "Clock reaches 150 half-moves");
    assert_valid(&g, 2);
    assert_termination(&g, "seventyfive_moves", 2);
    assert_eq!(g["fifty_ply"], 0);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn checkmate_on_the_hundred_and_fiftieth_half_move_wins() {
    let g = rules("seventyfive_moves.pgn", "Hundred-and-fiftieth half-move mates");
    assert_valid(&g, 1);
    assert_termination(&g, "checkmate", 1);
    assert_eq!(g["result"], "1-0");
    assert_eq!(g["result_consistent"], true);
    assert_eq!(g["fifty_ply"], 0);
}

#[test]
fn stalemate_on_the_hundred_and_fiftieth_half_move_is_stalemate() {
    let g = rules("seventyfive_moves.pgn", "Hundred-and-fiftieth half-move stalemates");
    assert_valid(&g, 1);
    assert_termination(&g, "stalemate", 1);
    assert_eq!(g["result_consistent"], true);
}

// ----------------------------------------------------------------- castling

#[test]
fn castling_kingside_and_queenside_is_legal() {
    let g = rules("castling.pgn", "Both sides castle");
    assert_valid(&g, 12);
    assert_eq!(g["final_fen"], "2kr1bnr/ppp1pppp/2n5/q7/6b1/2N2N2/PPPPBPPP/R1BQ1RK1 w - - 8 7");
    assert_eq!(g["warnings"], serde_json::json!([]));

    let g = rules("castling.pgn", "White castles queenside, Black kingside");
    assert_valid(&g, 10);
    assert_eq!(final_board(&g), "rnbq1rk1/ppp1ppbp/3p1np1/8/3P1B2/2N5/PPPQPPPP/2KR1BNR");
}

#[test]
fn castling_through_check_is_illegal() {
    let g = rules("castling.pgn", "Castling through check");
    assert_error(&g, "illegal_move", "O-O", 3, 31);
    assert_eq!(g["error"]["fen"], "4kr2/8/p7/8/8/P7/8/4K2R w K - 0 2");
}

#[test]
fn castling_out_of_check_is_illegal() {
    let g = rules("castling.pgn", "Castling out of check");
    assert_error(&g, "illegal_move", "O-O", 2, 43);
    assert_eq!(g["error"]["fen"], "4k3/p3r3/8/8/8/8/P7/4K2R w K - 1 2");
}

#[test]
fn castling_into_check_is_illegal() {
    let g = rules("castling.pgn", "Castling into check");
    assert_error(&g, "illegal_move", "O-O", 1, 55);
}

#[test]
fn castling_after_the_king_moved_is_illegal() {
    let g = rules("castling.pgn", "Castling after the king moved");
    assert_error(&g, "illegal_move", "O-O", 11, 65);
    // Same pieces as at the start, but both sides lost their rights.
    assert_eq!(g["error"]["fen"], "rnbqk2r/ppppbppp/5n2/4p3/4P3/5N2/PPPPBPPP/RNBQK2R w - - 8 6");
}

#[test]
fn castling_after_the_rook_moved_is_illegal() {
    let g = rules("castling.pgn", "Castling after the rook moved");
    assert_error(&g, "illegal_move", "O-O", 11, 75);
    assert_eq!(g["error"]["fen"], "rnbqk2r/ppppbppp/5n2/4p3/4P3/5N2/PPPPBPPP/RNBQK2R w Qq - 8 6");
}

#[test]
fn castling_with_pieces_between_is_illegal() {
    let g = rules("castling.pgn", "Castling with pieces between");
    assert_error(&g, "illegal_move", "O-O-O", 3, 85);
}

#[test]
fn black_castling_through_an_attacked_square_is_illegal() {
    let g = rules("castling.pgn", "Black castles queenside through an attacked square");
    assert_error(&g, "illegal_move", "O-O-O", 1, 97);
}

#[test]
fn queenside_castling_with_only_the_b_square_attacked_is_legal() {
    let g = rules("castling.pgn", "Queenside castling with only b1 attacked");
    assert_valid(&g, 2);
    assert_eq!(final_board(&g), "1r6/5k2/8/8/8/8/8/2KR4");
}

// --------------------------------------------------------------- en passant

#[test]
fn en_passant_right_after_the_double_step_is_legal() {
    let g = rules("en_passant.pgn", "White captures en passant");
    assert_valid(&g, 6);
    assert_eq!(g["final_fen"], "rnbqkb1r/ppp2ppp/3p1n2/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4");

    let g = rules("en_passant.pgn", "Black captures en passant");
    assert_valid(&g, 7);
    assert_eq!(g["final_fen"], "rnbqkbnr/ppp1pppp/8/8/8/2N1PN2/PPP2PPP/R1BQKB1R b KQkq - 0 4");
}

#[test]
fn en_passant_one_move_too_late_is_illegal() {
    let g = rules("en_passant.pgn", "En passant one move too late");
    assert_error(&g, "illegal_move", "exd6", 7, 29);
    assert_eq!(
        g["error"]["fen"],
        "r1bqkb1r/ppp1pppp/2n2n2/3pP3/8/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 4"
    );
}

#[test]
fn en_passant_after_two_single_steps_is_illegal() {
    let g = rules("en_passant.pgn", "En passant after a single step");
    assert_error(&g, "illegal_move", "exd6", 5, 39);
    assert_eq!(g["error"]["fen"], "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
}

// ---------------------------------------------------------------- promotion

#[test]
fn promotion_to_each_of_the_four_pieces() {
    let g = rules("promotion.pgn", "Promotion to all four pieces");
    assert_valid(&g, 8);
    assert_eq!(g["final_fen"], "QRBN4/8/8/7k/8/8/8/4K3 w - - 1 5");
    assert_eq!(g["warnings"], serde_json::json!([]));
}

#[test]
fn black_underpromotion_with_capture_and_check() {
    let g = rules("promotion.pgn", "Black promotes with a capture");
    assert_valid(&g, 3);
    assert_eq!(g["final_fen"], "8/3k4/8/8/8/8/3K4/7r w - - 2 3");
    assert_no_termination(&g);
    assert_eq!(g["warnings"], serde_json::json!([]));
}

#[test]
fn promotion_without_a_piece_is_missing_promotion() {
    let g = rules("promotion.pgn", "Promotion without a piece");
    assert_error(&g, "missing_promotion", "a8", 3, 35);
    assert_eq!(g["error"]["fen"], "8/P2k4/8/8/8/8/3K4/8 w - - 2 2");
}

// ------------------------------------------------------------ pinned pieces

#[test]
fn pinned_knight_moving_is_illegal() {
    let g = rules("pinned_piece.pgn", "Pinned knight moves");
    assert_error(&g, "illegal_move", "Nd5", 7, 9);
}

#[test]
fn pinned_rook_may_move_along_the_pin() {
    let g = rules("pinned_piece.pgn", "Pinned rook moves along the pin");
    assert_valid(&g, 3);
    assert_eq!(g["final_fen"], "4R3/6k1/8/8/8/8/8/4K3 b - - 0 2");
}

#[test]
fn pinned_rook_leaving_the_pin_is_illegal() {
    let g = rules("pinned_piece.pgn", "Pinned rook leaves the pin");
    assert_error(&g, "illegal_move", "Rd2", 1, 33);
}

#[test]
fn en_passant_that_exposes_the_king_on_the_rank_is_illegal() {
    let g = rules("pinned_piece.pgn", "En passant capture exposes the king");
    assert_error(&g, "illegal_move", "cxb3", 1, 45);
}

// ------------------------------------------------------ moving into check

#[test]
fn king_moving_into_check_is_illegal() {
    let g = rules("into_check.pgn", "King walks into a bishop");
    assert_error(&g, "illegal_move", "Ke3", 5, 9);
    assert_eq!(g["error"]["fen"], "rnbqk1nr/pppp1ppp/8/2b1p3/4P3/8/PPPPKPPP/RNBQ1BNR w kq - 2 3");
}

#[test]
fn move_leaving_the_king_in_check_is_illegal() {
    let g = rules("into_check.pgn", "Move ignores a check");
    assert_error(&g, "illegal_move", "Nf6", 4, 19);
}

#[test]
fn king_next_to_the_other_king_is_illegal() {
    let g = rules("into_check.pgn", "King steps next to the other king");
    assert_error(&g, "illegal_move", "Kd4", 1, 31);
}

#[test]
fn king_capturing_a_protected_piece_is_illegal() {
    let g = rules("into_check.pgn", "Capture of a protected piece by the king");
    assert_error(&g, "illegal_move", "Kxd2", 1, 43);
}

// ------------------------------------------------------- ambiguous moves

#[test]
fn move_two_rooks_can_make_is_ambiguous() {
    let g = rules("ambiguous.pgn", "Two rooks can reach e3");
    assert_error(&g, "ambiguous_move", "Re3", 9, 9);
    assert_eq!(g["error"]["fen"], "r1bqkbn1/1pppppp1/2n4r/p6p/P6P/R6R/1PPPPPP1/1NBQKBN1 w q - 4 5");
}

#[test]
fn move_two_rooks_on_one_file_can_make_is_ambiguous() {
    let g = rules("ambiguous.pgn", "Two rooks on one file");
    assert_error(&g, "ambiguous_move", "Ra3", 1, 21);
}

#[test]
fn move_two_knights_can_make_is_ambiguous() {
    let g = rules("ambiguous.pgn", "Two knights can reach d2");
    assert_error(&g, "ambiguous_move", "Nd2", 5, 63);
}

#[test]
fn rank_disambiguation_is_standard() {
    let g = rules("ambiguous.pgn", "Rank disambiguation");
    assert_valid(&g, 3);
    assert_eq!(final_board(&g), "8/3k4/8/8/R7/R7/8/4K3");
    assert_eq!(g["warnings"], serde_json::json!([]));
}

#[test]
fn over_disambiguated_moves_are_accepted_as_nonstandard() {
    let g = rules("ambiguous.pgn", "Over-disambiguated moves");
    assert_valid(&g, 5);
    assert_eq!(final_board(&g), "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R");
    assert_warning(&g, "nonstandard_notation", 43);
}

#[test]
fn pin_resolves_an_apparent_ambiguity() {
    // Both knights see e2, but the one on c3 is pinned: `Ne2` is correct.
    let g = rules("ambiguous.pgn", "Pin resolves the apparent ambiguity");
    assert_valid(&g, 7);
    assert_eq!(final_board(&g), "rnbqk2r/pppp1ppp/5n2/4p3/1b2P3/2NP4/PPP1NPPP/R1BQKB1R");
    assert_eq!(g["warnings"], serde_json::json!([]));
}

// ------------------------------------------------------- result consistency

#[test]
fn checkmate_scored_for_the_mated_side_is_inconsistent() {
    let g = rules("result_consistency.pgn", "Mated side scored as the winner");
    assert_valid(&g, 4);
    assert_termination(&g, "checkmate", 4);
    assert_eq!(g["result_consistent"], false);
}

#[test]
fn checkmate_scored_as_a_draw_is_inconsistent() {
    let g = rules("result_consistency.pgn", "Checkmate scored as a draw");
    assert_termination(&g, "checkmate", 4);
    assert_eq!(g["result_consistent"], false);
}

#[test]
fn stalemate_scored_as_a_win_is_inconsistent() {
    let g = rules("result_consistency.pgn", "Stalemate scored as a win");
    assert_valid(&g, 1);
    assert_termination(&g, "stalemate", 1);
    assert_eq!(g["result_consistent"], false);
}

#[test]
fn insufficient_material_scored_as_a_win_is_inconsistent() {
    let g = rules("result_consistency.pgn", "Insufficient material scored as a win");
    assert_termination(&g, "insufficient_material", 1);
    assert_eq!(g["result_consistent"], false);
}

#[test]
fn fivefold_repetition_scored_as_a_win_is_inconsistent() {
    let g = rules("result_consistency.pgn", "Fivefold repetition scored as a win");
    assert_termination(&g, "fivefold_repetition", 16);
    assert_eq!(g["result_consistent"], false);
}

#[test]
fn decisive_result_without_an_automatic_end_is_consistent() {
    let g = rules("result_consistency.pgn", "Resignation without an automatic end");
    assert_valid(&g, 3);
    assert_no_termination(&g);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn result_tag_is_the_recorded_result() {
    // Result "0-1", marker "*": Black mated, so the tag is consistent.
    let g = rules("result_consistency.pgn", "Result tag decides over the marker");
    assert_eq!(g["result"], "0-1");
    assert_eq!(g["result_marker"], "*");
    assert_eq!(g["result_consistent"], true);
    assert!(warning_kinds(&g).contains(&"result_mismatch".to_owned()), "{g}");
}

#[test]
fn result_marker_is_the_recorded_result_without_a_result_tag() {
    // No Result tag; marker "1-0" after Black mated.
    let g = rules("result_consistency.pgn", "Marker used when there is no Result tag");
    assert!(g["result"].is_null(), "{g}");
    assert_eq!(g["result_marker"], "1-0");
    assert_eq!(g["result_consistent"], false);
    assert!(warning_kinds(&g).contains(&"missing_tag".to_owned()), "{g}");
}

// ---------------------------------------------------------- moves after end

#[test]
fn moves_after_insufficient_material_are_counted() {
    let g = rules("moves_after_end.pgn", "Game goes on after insufficient material");
    assert_valid(&g, 3);
    assert_termination(&g, "insufficient_material", 1);
    assert_eq!(g["moves_after_end"], 2);
}

#[test]
fn moves_after_fivefold_repetition_are_counted() {
    let g = rules("moves_after_end.pgn", "Game goes on after fivefold repetition");
    assert_valid(&g, 18);
    assert_termination(&g, "fivefold_repetition", 16);
    assert_eq!(g["moves_after_end"], 2);
    assert_eq!(g["final_fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 10");
}

#[test]
fn move_after_checkmate_is_illegal() {
    // The mated side has no legal move at all.
    let g = rules("moves_after_end.pgn", "Game goes on after checkmate");
    assert_error(&g, "illegal_move", "Nf3", 5, 32);
    assert_termination(&g, "checkmate", 4);
    assert_eq!(g["moves_after_end"], 0);
}

#[test]
fn moves_after_the_seventyfive_move_rule_are_counted() {
    let g = rules("moves_after_end.pgn", "Game goes on after the seventy-five-move rule");
    assert_valid(&g, 2);
    assert_termination(&g, "seventyfive_moves", 1);
    assert_eq!(g["moves_after_end"], 1);
}

// ------------------------------------------------------------ impossible win

#[test]
fn win_for_a_lone_king_is_an_impossible_win() {
    let g = rules("impossible_win.pgn", "Win with a lone king");
    assert_valid(&g, 2);
    assert_no_termination(&g);
    assert_eq!(g["result_consistent"], true);
    assert!(warning_kinds(&g).contains(&"impossible_win".to_owned()), "{g}");
}

#[test]
fn win_with_a_knight_against_a_queen_is_an_impossible_win() {
    // A knight cannot mate when the other side has only a queen: nothing
    // to block its own king with.
    let g = rules("impossible_win.pgn", "Win with K+N against a queen");
    assert_valid(&g, 4);
    assert!(warning_kinds(&g).contains(&"impossible_win".to_owned()), "{g}");
}

#[test]
fn win_with_a_knight_against_a_rook_is_possible() {
    // The rook can block its own king: a helpmate exists.
    let g = rules("impossible_win.pgn", "Win with K+N against a rook");
    assert_valid(&g, 4);
    assert_no_warning(&g, "impossible_win");
}

#[test]
fn win_with_a_bishop_against_a_pawn_is_possible() {
    let g = rules("impossible_win.pgn", "Win with K+B against K+P");
    assert_valid(&g, 2);
    assert_no_warning(&g, "impossible_win");
}

// ----------------------------------------------------------------- Chess960

#[test]
fn chess960_castling_swaps_king_and_rook() {
    let g = rules("chess960.pgn", "King and rook swap squares");
    assert_eq!(g["variant"], "chess960");
    assert_valid(&g, 3);
    assert_eq!(final_board(&g), "nrbbqrkn/pppppppp/8/8/4P3/8/PPPP1PPP/NRBBQRKN");
}

#[test]
fn chess960_queenside_castling() {
    let g = rules("chess960.pgn", "Queenside castling onto the d-file");
    assert_eq!(g["variant"], "chess960");
    assert_valid(&g, 2);
    assert_eq!(final_board(&g), "1r3rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1");
}

#[test]
fn chess960_castling_through_an_attacked_square_is_illegal() {
    let g = rules("chess960.pgn", "King may not pass an attacked square");
    assert_error(&g, "illegal_move", "O-O", 2, 38);
}

// ------------------------------------------------------------ lichess variants

#[test]
fn king_of_the_hill_ends_when_a_king_reaches_the_centre() {
    let g = rules("variants.pgn", "King of the Hill: king reaches e4");
    assert_ne!(g["variant"], "chess");
    assert_valid(&g, 7);
    assert_termination(&g, "variant_win", 7);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn three_check_ends_with_the_third_check() {
    let g = rules("variants.pgn", "Three-check: third check wins");
    assert_ne!(g["variant"], "chess");
    assert_valid(&g, 9);
    assert_termination(&g, "variant_win", 9);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn atomic_capture_next_to_the_king_explodes_it() {
    let g = rules("variants.pgn", "Atomic: capture next to the king explodes it");
    assert_eq!(g["variant"], "atomic");
    assert_valid(&g, 5);
    assert_termination(&g, "variant_win", 5);
    assert_eq!(g["result_consistent"], true);
}

#[test]
fn same_capture_in_standard_chess_is_ordinary() {
    let g = rules("variants.pgn", "Standard chess: the same knight capture is ordinary");
    assert_eq!(g["variant"], "chess");
    assert_valid(&g, 6);
    assert_no_termination(&g);
}

#[test]
fn unknown_variant_is_not_checked_and_never_illegal() {
    let recs = games("rules/unknown_variant.pgn");
    assert_eq!(recs.len(), 2);
    let g = game(&recs, "Bughouse game");
    assert_eq!(g["variant"], "Bughouse");
    assert_eq!(g["valid"], true, "{g}");
    assert!(g["error"].is_null(), "{g}");
    assert_warning(g, "unsupported_variant", 1);
    // The next game is standard chess again.
    let g = game(&recs, "Standard game after the Bughouse game");
    assert_eq!(g["variant"], "chess");
    assert_valid(g, 7);
    assert_termination(g, "checkmate", 7);
}

// ----------------------------------------------------------------- notation

#[test]
fn check_without_a_suffix_is_a_check_suffix_warning() {
    let g = rules("notation.pgn", "Check without a suffix");
    assert_valid(&g, 4);
    assert_warning(&g, "check_suffix", 9);
}

#[test]
fn check_suffix_on_a_quiet_move_is_a_warning() {
    let g = rules("notation.pgn", "Suffix on a quiet move");
    assert_valid(&g, 2);
    assert_warning(&g, "check_suffix", 19);
}

#[test]
fn mate_written_as_check_is_a_check_suffix_warning() {
    let g = rules("notation.pgn", "Mate written as check");
    assert_valid(&g, 4);
    assert_termination(&g, "checkmate", 4);
    assert_warning(&g, "check_suffix", 29);
}

#[test]
fn move_number_that_does_not_match_the_ply_is_a_warning() {
    let g = rules("notation.pgn", "Move number skips ahead");
    assert_valid(&g, 4);
    assert_warning(&g, "move_number", 39);
}

#[test]
fn long_algebraic_and_coordinate_moves_are_nonstandard_but_accepted() {
    let g = rules("notation.pgn", "Long algebraic and coordinate moves");
    assert_valid(&g, 4);
    assert_eq!(final_board(&g), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R");
    assert_warning(&g, "nonstandard_notation", 49);
}

#[test]
fn promotion_without_equals_sign_is_nonstandard_but_accepted() {
    let g = rules("notation.pgn", "Promotions without an equals sign");
    assert_valid(&g, 4);
    assert_eq!(final_board(&g), "Q6Q/8/8/2k5/8/8/8/4K3");
    assert_warning(&g, "nonstandard_notation", 61);
}

#[test]
fn correct_notation_has_no_warnings() {
    let g = rules("notation.pgn", "Correct notation throughout");
    assert_valid(&g, 7);
    assert_eq!(g["warnings"], serde_json::json!([]));
}

// --------------------------------------------------------------- tag roster

#[test]
fn missing_roster_tags_are_warned_one_by_one() {
    let g = rules("tag_roster.pgn", "Site and Round missing");
    assert_valid(&g, 2);
    assert_eq!(crate::util::warnings_of(&g, "missing_tag").len(), 2, "{g}");
    assert!(g["round"].is_null());
}

#[test]
fn date_with_dashes_is_a_malformed_tag() {
    let g = rules("tag_roster.pgn", "Date with dashes");
    assert_warning(&g, "malformed_tag", 11);
}

#[test]
fn date_with_unknown_parts_is_well_formed() {
    let g = rules("tag_roster.pgn", "Unknown date parts are fine");
    assert_eq!(g["warnings"], serde_json::json!([]));
}

#[test]
fn result_tag_that_is_not_a_result_is_a_malformed_tag() {
    let g = rules("tag_roster.pgn", "Result tag that is not a result");
    assert_eq!(g["result"], "2-0");
    assert_warning(&g, "malformed_tag", 35);
}

#[test]
fn result_tag_disagreeing_with_the_marker_is_a_result_mismatch() {
    let g = rules("tag_roster.pgn", "Result tag disagrees with the marker");
    assert_eq!(g["result"], "1-0");
    assert_eq!(g["result_marker"], "0-1");
    assert_eq!(warning_kinds(&g), vec!["result_mismatch".to_owned()]);
}

// --------------------------------------------------------------- variations

#[test]
fn illegal_move_in_a_variation_is_ignored_by_default() {
    let g = rules("variations.pgn", "Illegal move inside a variation");
    assert_valid(&g, 5);
}

#[test]
fn illegal_move_in_a_variation_is_an_error_with_variations() {
    let path = crate::util::fixture("rules/variations.pgn");
    let recs = records(&["games", "--format", "jsonl", "--variations", &path]);
    let g = game(&recs, "Illegal move inside a variation");
    assert_eq!(g["valid"], false, "{g}");
    assert_eq!(g["error"]["kind"], "illegal_move");
    assert_eq!(g["error"]["san"], "Ke3");
    assert_eq!(g["error"]["line"], 9);
    // 2. Nc3 replaces ply 3; 2... Nc6 is ply 4, 3. Ke3 ply 5.
    assert_eq!(g["error_ply"], 5);
    assert_eq!(
        g["error"]["fen"],
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3"
    );
    // The mainline is still replayed to its end.
    assert_eq!(g["plies"], 5);

    let g = game(&recs, "Nested variations, all legal");
    assert_valid(g, 5);
    let g = game(&recs, "Variation after Black's move");
    assert_valid(g, 5);
}

// ------------------------------------------- dead positions (Art. 5.2.2)

#[test]
fn a_pawn_move_that_locks_the_wall_ends_the_game_in_a_dead_position() {
    let g = rules("dead_position.pgn", "A pawn move locks the wall");
    assert_valid(&g, 4);
    assert_termination(&g, "dead_position", 1);
    assert_eq!(g["moves_after_end"], 3);
    assert_eq!(g["result_consistent"], true);
    // The start, alive (hxg5 opens the wall), may be left undetermined by
    // the budget of an analysis while replaying; never a later ply.
    assert!(matches!(g["undetermined_ply"].as_u64(), None | Some(0)), "{g}");
}

#[test]
fn a_win_scored_in_a_dead_position_contradicts_it() {
    let g = rules("dead_position.pgn", "A locked wall scored as a win");
    assert_termination(&g, "dead_position", 1);
    assert_eq!(g["result_consistent"], false);
}

#[test]
fn a_check_whose_only_answer_takes_the_last_piece_is_dead_at_once() {
    // Not insufficient material yet (Black has a queen), but White's only
    // legal move leaves bare kings: dead after the check, one ply before
    // the material says so.
    let g = rules("dead_position.pgn", "A check whose only answer takes the last piece");
    assert_termination(&g, "dead_position", 1);
    assert_eq!(g["moves_after_end"], 1);
}

#[test]
fn a_game_stopped_in_a_forced_line_into_a_lone_bishop_is_dead_at_its_end() {
    // Black's only reply to Rg8+ is Kxg8, which leaves a lone bishop: the
    // game ends dead there, and the win recorded contradicts it.
    let g = rules("dead_position.pgn", "A game stopped in a forced line, scored as a win");
    assert_valid(&g, 1);
    assert_termination(&g, "dead_position", 1);
    assert_eq!(g["moves_after_end"], 0);
    assert_eq!(g["result_consistent"], false);
}

#[test]
fn a_wall_with_a_gap_is_not_a_dead_position() {
    let g = rules("dead_position.pgn", "A wall with a gap is not dead");
    assert_no_termination(&g);
}

#[test]
fn a_win_on_time_by_bishops_that_cannot_pass_the_wall_is_a_draw_under_art_6_9() {
    let g = rules("dead_position.pgn", "Won on time with bishops that cannot pass the wall");
    assert_no_termination(&g);
    assert_eq!(g["on_time"], true);
    assert_eq!(g["timeout_draw"], true);
    // Whether Black can mate is left undetermined by the budget: the
    // position is not called dead, and the record says where.
    assert_eq!(g["undetermined_ply"], 4);
}

#[test]
fn a_resignation_against_bishops_that_cannot_pass_the_wall_is_an_impossible_win() {
    // Art. 6.9 beyond material for a resignation: the frozen wall proves
    // that White cannot mate (the statics, without a search); the result
    // may stand, with W127.
    let g = rules("dead_position.pgn", "Resigned against bishops that cannot pass the wall");
    assert_no_termination(&g);
    assert_eq!((g["on_time"].as_bool(), g["timeout_draw"].as_bool()), (Some(false), Some(false)));
    assert_warning(&g, "impossible_win", 62);
}

#[test]
fn a_win_on_time_by_a_man_that_every_reply_captures_is_a_draw() {
    // Art. 6.9: the winner's queen or rook is taken whatever the reply,
    // which leaves a bare king (a review found these called wins).
    for event in [
        "Won on time with a queen that every reply captures",
        "Won on time with a rook that every reply captures",
    ] {
        let g = rules("timeout_forced_capture.pgn", event);
        assert_eq!((g["on_time"].as_bool(), g["timeout_draw"].as_bool()), (Some(true), Some(true)));
        assert_no_termination(&g);
    }
    let g = rules("timeout_forced_capture.pgn", "Won on time with a queen that can still mate");
    assert_eq!((g["on_time"].as_bool(), g["timeout_draw"].as_bool()), (Some(true), Some(false)));
}

#[test]
fn a_win_on_time_by_a_lone_knight_against_a_queen_is_a_draw_but_a_resignation_may_stand() {
    let g = rules("timeout.pgn", "Won on time with a lone knight against a queen");
    assert_eq!(g["timeout_draw"], true);
    assert!(warning_kinds(&g).is_empty(), "{g}");
    let g = rules("timeout.pgn", "Won on time with a knight that can still mate");
    assert_eq!((g["on_time"].as_bool(), g["timeout_draw"].as_bool()), (Some(true), Some(false)));
    let g = rules("timeout.pgn", "Won on time with a lone bishop, as chess.com writes it");
    assert_eq!((g["on_time"].as_bool(), g["timeout_draw"].as_bool()), (Some(true), Some(false)));
    let g = rules("timeout.pgn", "Resigned against a lone knight");
    assert_eq!(g["on_time"], false);
    assert_eq!(g["timeout_draw"], false);
    assert_warning(&g, "impossible_win", 40);
}
