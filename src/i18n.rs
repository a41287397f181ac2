//! The interface's words in English and Vietnamese: two tables with the same keys.

use serde::{Deserialize, Serialize};

/// A language of the interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Tiếng Việt.
    Vi,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Vi];

    /// The language's own name.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Vi => "Tiếng Việt",
        }
    }

    /// Reads `en` or `vi`.
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "vi" => Some(Lang::Vi),
            _ => None,
        }
    }

    fn table(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Lang::En => EN,
            Lang::Vi => VI,
        }
    }

    /// The text for `key`; English if this language lacks it, the key itself if both do.
    pub fn t(self, key: &'static str) -> &'static str {
        lookup(self.table(), key).or_else(|| lookup(EN, key)).unwrap_or(key)
    }
}

fn lookup(table: &'static [(&'static str, &'static str)], key: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// Every key of a table, for the test that both tables agree.
pub fn keys(lang: Lang) -> Vec<&'static str> {
    lang.table().iter().map(|(k, _)| *k).collect()
}

/// Replaces `{}` placeholders in order.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut parts = template.split("{}");
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        out.push_str(args.get(i).copied().unwrap_or(""));
        out.push_str(part);
    }
    out
}

pub(crate) const EN: &[(&str, &str)] = &[
    ("app.title", "Ludus"),
    ("app.subtitle", "Two ancient capture games"),
    ("game.latrunculi", "Latrunculi"),
    ("game.latrunculi-quick", "Latrunculi, quick 8x8"),
    ("game.alquerque", "Alquerque"),
    ("game.latrunculi.blurb", "Roman soldiers' game: rook moves, sandwich captures, trap the king."),
    ("game.latrunculi-quick.blurb", "The same battle on a smaller 8x8 field."),
    ("game.alquerque.blurb", "The ancestor of checkers: jump, capture, keep jumping."),
    ("menu.game", "Game"),
    ("menu.mode", "Opponent"),
    ("menu.vs_computer", "Against the computer"),
    ("menu.two_players", "Two players on this device"),
    ("menu.play_as", "Play as"),
    ("menu.level", "Level"),
    ("menu.play", "Play"),
    ("menu.resume", "Resume the unfinished game"),
    ("menu.rules", "Rules and tips"),
    ("menu.settings", "Settings"),
    ("menu.quit", "Quit"),
    ("menu.back", "Back"),
    ("menu.online_soon", "Online play and watching games: coming soon"),
    ("level.easy", "Easy"),
    ("level.medium", "Medium"),
    ("level.hard", "Hard"),
    ("side.red", "Red"),
    ("side.black", "Black"),
    ("side.white", "White"),
    ("status.to_move", "{} to move"),
    ("status.your_move", "Your move ({})"),
    ("status.must_capture", "{} to move: a capture is compulsory"),
    ("status.thinking", "The computer is thinking…"),
    ("status.chain", "Keep jumping: tap the next landing point"),
    ("status.king_danger", "{}'s king has only one free side!"),
    ("status.clock", "Plies without a capture: {} of {}"),
    ("status.repetition", "This position has occurred twice: a third time ends the game"),
    ("hud.moves", "Moves"),
    ("hud.captured", "Captured"),
    ("hud.undo", "Undo"),
    ("hud.redo", "Redo"),
    ("hud.hint", "Hint"),
    ("hud.resign", "Resign"),
    ("hud.new_game", "New game"),
    ("hud.menu", "Menu"),
    ("hud.flip", "Turn the board"),
    ("hud.level", "Computer: {}"),
    ("over.title", "Game over"),
    ("over.wins", "{} wins"),
    ("over.draw", "Draw"),
    ("over.rematch", "Rematch"),
    ("over.view", "View the board"),
    ("over.back", "Back to the menu"),
    ("reason.KingImmobilised", "The king was immobilised: no free square around it."),
    ("reason.KingImmobilised.self", "The king was walled in by its own side's move."),
    ("reason.OnlyKingLeft", "Only the king was left: every soldier was captured."),
    ("reason.NoPieces", "Every piece was captured."),
    ("reason.NoLegalMove", "No legal move was left."),
    ("reason.Repetition", "The same position occurred a third time."),
    (
        "reason.Repetition.latrunculi",
        "The same position occurred a third time: the player who repeated it loses.",
    ),
    ("reason.NoCaptureLimit", "Too many moves without a capture."),
    ("reason.NoCaptureLimit.latrunculi", "100 plies without a capture: decided on material."),
    ("reason.Resignation", "Resignation."),
    ("reason.Timeout", "Time ran out."),
    ("reason.Abandoned", "The game was abandoned."),
    ("settings.title", "Settings"),
    ("settings.language", "Language"),
    ("settings.animation", "Animation speed"),
    ("settings.anim.off", "Off"),
    ("settings.anim.fast", "Fast"),
    ("settings.anim.normal", "Normal"),
    ("settings.anim.slow", "Slow"),
    ("settings.theme", "Board theme"),
    ("settings.theme.wood", "Wood"),
    ("settings.theme.stone", "Stone"),
    ("settings.theme.contrast", "High contrast"),
    ("settings.sound", "Sound effects"),
    ("settings.sound.unavailable", "(not available in this build)"),
    ("settings.coordinates", "Show coordinates"),
    ("save.corrupt", "The saved game could not be read ({}). It was kept aside as {}."),
    ("save.resumed", "The unfinished game was restored."),
    ("rules.title", "Rules and tips"),
    ("rules.latrunculi.title", "Latrunculi"),
    ("rules.alquerque.title", "Alquerque"),
    (
        "rules.latrunculi.setup",
        "Red starts with twelve soldiers on rank 1 and its king on g2; Black has twelve soldiers on rank 8 and its king on f7. Red moves first. The quick variant is played on 8x8 with kings on e2 and d7.",
    ),
    (
        "rules.latrunculi.move",
        "Every piece, soldier or king, moves like a rook in chess: any number of empty squares along a rank or a file. No jumping, no diagonal moves.",
    ),
    (
        "rules.latrunculi.capture",
        "Capture by sandwich: after your move, an enemy soldier that sits between the piece you moved and another of your pieces (soldier or king), in a straight line, is removed. One move can take up to three soldiers. Capturing is optional. Moving in between two enemies is safe: only the side that moves captures. Kings help to capture but are never captured by a sandwich.",
    ),
    (
        "rules.latrunculi.king",
        "The king is lost when it cannot move: when no square next to it (up, down, left, right) is empty, whatever blocks it, its own pieces and the board's edge included. Careful: if your own move walls in your own king, you lose at once.",
    ),
    (
        "rules.latrunculi.end",
        "You also win when the opponent has only the king left. Repeating a position for the third time loses the game for the player who repeats it. After 100 plies without a capture, the side with more pieces wins (equal material is a draw): this last rule is Ludus's own, so that every game ends. A player with no legal move loses.",
    ),
    (
        "rules.latrunculi.tips",
        "Tips: keep your king's sides open; a king next to the edge has only three free sides, in a corner only two. Attack in pairs: a soldier alone cannot capture. Before moving between two enemy pieces, check that they cannot close the sandwich next turn from another line.",
    ),
    (
        "rules.alquerque.setup",
        "A board of 25 points joined by lines. White fills ranks 1 and 2 plus d3 and e3; Black fills ranks 4 and 5 plus a3 and b3; only the centre c3 is empty. White moves first. Diagonal lines exist only on every other point, as drawn.",
    ),
    (
        "rules.alquerque.move",
        "A piece steps to an adjacent empty point along a line, forward or sideways, never backward. A piece on the far rank can only move sideways or capture. There is no promotion.",
    ),
    (
        "rules.alquerque.capture",
        "Capture by jumping over an adjacent enemy piece along a line to the empty point just beyond it, in any direction, backward too. The jumped piece is removed at once. Capturing is compulsory: if you can capture, you must (any capture you like). A capturing piece must keep jumping while it can, and may turn between jumps.",
    ),
    (
        "rules.alquerque.end",
        "You win when the opponent has no pieces or no legal move. The game is drawn after 50 plies without a capture or when a position occurs for the third time.",
    ),
    (
        "rules.alquerque.tips",
        "Tips: compulsory capture is a weapon. Offer one piece so that the forced reply lands where you can take two back. Keep your pieces together; a piece alone on the far rank can only shuffle sideways.",
    ),
    (
        "rules.diagram.sandwich",
        "Sandwich: Red moves to close the line and the black soldier in between is removed.",
    ),
    ("rules.diagram.king", "King immobilised: the black king has no empty square beside it. Red wins."),
    (
        "rules.diagram.chain",
        "Multi-jump: White jumps twice, turning on the way; both black pieces are removed.",
    ),
    (
        "rules.notation",
        "Notation: squares are named by file letter and rank number (a1 is bottom left). A slide is written g2-g5, a capture path a1xc3xe5.",
    ),
];

pub(crate) const VI: &[(&str, &str)] = &[
    ("app.title", "Ludus"),
    ("app.subtitle", "Hai trò chơi ăn quân cổ xưa"),
    ("game.latrunculi", "Latrunculi"),
    ("game.latrunculi-quick", "Latrunculi, bàn nhanh 8x8"),
    ("game.alquerque", "Alquerque"),
    ("game.latrunculi.blurb", "Trò chơi của lính La Mã: đi như xe, kẹp để ăn quân, vây chặt vua."),
    ("game.latrunculi-quick.blurb", "Cùng trận chiến trên bàn 8x8 nhỏ hơn."),
    ("game.alquerque.blurb", "Tổ tiên của cờ đam: nhảy qua, ăn quân, nhảy tiếp."),
    ("menu.game", "Trò chơi"),
    ("menu.mode", "Đối thủ"),
    ("menu.vs_computer", "Chơi với máy"),
    ("menu.two_players", "Hai người trên cùng thiết bị"),
    ("menu.play_as", "Cầm quân"),
    ("menu.level", "Mức độ"),
    ("menu.play", "Chơi"),
    ("menu.resume", "Chơi tiếp ván dang dở"),
    ("menu.rules", "Luật chơi và mẹo"),
    ("menu.settings", "Cài đặt"),
    ("menu.quit", "Thoát"),
    ("menu.back", "Quay lại"),
    ("menu.online_soon", "Chơi trực tuyến và xem ván đấu: sắp ra mắt"),
    ("level.easy", "Dễ"),
    ("level.medium", "Trung bình"),
    ("level.hard", "Khó"),
    ("side.red", "Đỏ"),
    ("side.black", "Đen"),
    ("side.white", "Trắng"),
    ("status.to_move", "Lượt của {}"),
    ("status.your_move", "Đến lượt bạn ({})"),
    ("status.must_capture", "Lượt của {}: bắt buộc phải ăn quân"),
    ("status.thinking", "Máy đang suy nghĩ…"),
    ("status.chain", "Nhảy tiếp: chạm vào điểm đáp tiếp theo"),
    ("status.king_danger", "Vua của {} chỉ còn một ô trống!"),
    ("status.clock", "Số nước không ăn quân: {} trên {}"),
    ("status.repetition", "Thế cờ này đã lặp lại hai lần: lần thứ ba sẽ kết thúc ván"),
    ("hud.moves", "Các nước đi"),
    ("hud.captured", "Quân bị ăn"),
    ("hud.undo", "Đi lại"),
    ("hud.redo", "Làm lại"),
    ("hud.hint", "Gợi ý"),
    ("hud.resign", "Xin thua"),
    ("hud.new_game", "Ván mới"),
    ("hud.menu", "Trình đơn"),
    ("hud.flip", "Xoay bàn cờ"),
    ("hud.level", "Máy: {}"),
    ("over.title", "Kết thúc ván"),
    ("over.wins", "{} thắng"),
    ("over.draw", "Hòa"),
    ("over.rematch", "Chơi lại"),
    ("over.view", "Xem bàn cờ"),
    ("over.back", "Về trình đơn"),
    ("reason.KingImmobilised", "Vua bị vây chặt: không còn ô trống nào bên cạnh."),
    ("reason.KingImmobilised.self", "Vua bị chính nước đi của phe mình vây kín."),
    ("reason.OnlyKingLeft", "Chỉ còn lại vua: mọi quân lính đã bị ăn."),
    ("reason.NoPieces", "Mọi quân đã bị ăn."),
    ("reason.NoLegalMove", "Không còn nước đi hợp lệ."),
    ("reason.Repetition", "Cùng một thế cờ xuất hiện lần thứ ba."),
    ("reason.Repetition.latrunculi", "Cùng một thế cờ xuất hiện lần thứ ba: người lặp lại bị thua."),
    ("reason.NoCaptureLimit", "Quá nhiều nước đi mà không ăn quân."),
    ("reason.NoCaptureLimit.latrunculi", "100 nước không ăn quân: phân định bằng số quân."),
    ("reason.Resignation", "Xin thua."),
    ("reason.Timeout", "Hết giờ."),
    ("reason.Abandoned", "Ván cờ bị bỏ dở."),
    ("settings.title", "Cài đặt"),
    ("settings.language", "Ngôn ngữ"),
    ("settings.animation", "Tốc độ hoạt hình"),
    ("settings.anim.off", "Tắt"),
    ("settings.anim.fast", "Nhanh"),
    ("settings.anim.normal", "Vừa"),
    ("settings.anim.slow", "Chậm"),
    ("settings.theme", "Giao diện bàn cờ"),
    ("settings.theme.wood", "Gỗ"),
    ("settings.theme.stone", "Đá"),
    ("settings.theme.contrast", "Tương phản cao"),
    ("settings.sound", "Hiệu ứng âm thanh"),
    ("settings.sound.unavailable", "(không có trong bản này)"),
    ("settings.coordinates", "Hiện tọa độ"),
    ("save.corrupt", "Không đọc được ván đã lưu ({}). Tệp được cất riêng thành {}."),
    ("save.resumed", "Đã khôi phục ván dang dở."),
    ("rules.title", "Luật chơi và mẹo"),
    ("rules.latrunculi.title", "Latrunculi"),
    ("rules.alquerque.title", "Alquerque"),
    (
        "rules.latrunculi.setup",
        "Đỏ có mười hai lính ở hàng 1 và vua ở g2; Đen có mười hai lính ở hàng 8 và vua ở f7. Đỏ đi trước. Biến thể nhanh chơi trên bàn 8x8 với vua ở e2 và d7.",
    ),
    (
        "rules.latrunculi.move",
        "Mọi quân, lính hay vua, đều đi như quân xe: bao nhiêu ô trống cũng được theo hàng ngang hoặc hàng dọc. Không được nhảy qua quân, không đi chéo.",
    ),
    (
        "rules.latrunculi.capture",
        "Ăn quân bằng cách kẹp: sau nước đi của bạn, lính địch nằm thẳng hàng giữa quân vừa đi và một quân khác của bạn (lính hoặc vua) bị loại khỏi bàn. Một nước có thể ăn tới ba lính. Ăn quân là không bắt buộc. Đi vào giữa hai quân địch là an toàn: chỉ bên vừa đi mới ăn được quân. Vua giúp kẹp nhưng không bao giờ bị ăn bằng cách kẹp.",
    ),
    (
        "rules.latrunculi.king",
        "Vua thua khi không thể đi: khi không còn ô nào bên cạnh (trên, dưới, trái, phải) trống, dù bị chặn bởi quân nào, kể cả quân mình hay mép bàn. Cẩn thận: nếu chính nước đi của bạn vây kín vua của mình, bạn thua ngay.",
    ),
    (
        "rules.latrunculi.end",
        "Bạn cũng thắng khi đối thủ chỉ còn lại vua. Ai làm một thế cờ lặp lại lần thứ ba sẽ bị thua. Sau 100 nước liên tiếp không ăn quân, bên nhiều quân hơn thắng (bằng quân thì hòa): luật cuối này là của riêng Ludus, để ván nào cũng kết thúc. Người không còn nước đi hợp lệ bị thua.",
    ),
    (
        "rules.latrunculi.tips",
        "Mẹo: giữ các cạnh của vua luôn thoáng; vua sát mép bàn chỉ còn ba cạnh trống, ở góc chỉ còn hai. Tấn công theo cặp: một lính đơn độc không thể ăn quân. Trước khi đi vào giữa hai quân địch, hãy xem chúng có thể khép kẹp từ hướng khác ở lượt sau hay không.",
    ),
    (
        "rules.alquerque.setup",
        "Bàn cờ có 25 điểm nối với nhau bằng các đường kẻ. Trắng đặt kín hàng 1 và 2 cùng d3 và e3; Đen đặt kín hàng 4 và 5 cùng a3 và b3; chỉ điểm giữa c3 để trống. Trắng đi trước. Đường chéo chỉ có ở cách một điểm, như trên hình.",
    ),
    (
        "rules.alquerque.move",
        "Mỗi quân đi một bước tới điểm trống kề bên theo đường kẻ, tiến lên hoặc sang ngang, không bao giờ lùi. Quân ở hàng cuối chỉ có thể đi ngang hoặc ăn quân. Không có phong cấp.",
    ),
    (
        "rules.alquerque.capture",
        "Ăn quân bằng cách nhảy qua một quân địch kề bên theo đường kẻ tới điểm trống ngay phía sau, theo mọi hướng, kể cả lùi. Quân bị nhảy qua bị loại ngay. Ăn quân là bắt buộc: nếu ăn được thì phải ăn (được chọn cách ăn nào cũng được). Quân đang ăn phải nhảy tiếp khi còn có thể, và được đổi hướng giữa các lần nhảy.",
    ),
    (
        "rules.alquerque.end",
        "Bạn thắng khi đối thủ hết quân hoặc không còn nước đi hợp lệ. Ván cờ hòa sau 50 nước liên tiếp không ăn quân hoặc khi một thế cờ xuất hiện lần thứ ba.",
    ),
    (
        "rules.alquerque.tips",
        "Mẹo: luật bắt buộc ăn quân là một vũ khí. Thí một quân để nước ăn bắt buộc của đối thủ rơi vào chỗ bạn ăn lại được hai quân. Giữ các quân gần nhau; một quân lẻ loi ở hàng cuối chỉ có thể đi qua đi lại.",
    ),
    ("rules.diagram.sandwich", "Kẹp: Đỏ đi khép hàng và lính đen ở giữa bị loại."),
    ("rules.diagram.king", "Vua bị vây: vua đen không còn ô trống bên cạnh. Đỏ thắng."),
    (
        "rules.diagram.chain",
        "Nhảy liên tiếp: Trắng nhảy hai lần, đổi hướng giữa chừng; cả hai quân đen bị loại.",
    ),
    (
        "rules.notation",
        "Ký hiệu: ô được gọi bằng chữ cột và số hàng (a1 ở góc dưới bên trái). Nước đi được viết g2-g5, đường ăn quân viết a1xc3xe5.",
    ),
];
