//! Bad and extreme input gets an answer or an error that says what it is,
//! never a panic, a crash or a wrong answer, in every engine: empty input,
//! very long input, code point 0xFFFFFFFF, bytes >= 0x80 and control
//! characters in Punycode text.

use punycheck::c_reference;
use punycheck::engines::{self, Engine};
use punycheck::harness::compare::{self, Verdict};
use punycheck::punycode::{self, ErrorKind};
use punycheck::vocabulary::{EngineError, Request};

/// A long input: `len` code points cycling through `distinct` values.
fn long_input(len: usize, distinct: u32) -> Vec<u32> {
    (0..len as u32)
        .map(|k| 0x4E00 + (k * 7919) % distinct)
        .collect()
}

#[test]
fn hundred_thousand_code_points_round_trip() {
    let input = long_input(100_000, 500);
    let encoded = punycode::encode(&input, None).expect("encodes");
    assert_eq!(
        c_reference::encode(&input, None).expect("C encodes"),
        encoded
    );
    let decoded = punycode::decode(&encoded).expect("decodes");
    assert_eq!(decoded.code_points, input);
    assert_eq!(
        c_reference::decode(&encoded)
            .expect("C decodes")
            .code_points,
        input
    );
}

#[test]
fn hundred_thousand_u32_max_in_both() {
    // Equal code points are handled in one pass: this encodes.
    let same = vec![u32::MAX; 100_000];
    let ours = punycode::encode(&same, None).map_err(|e| e.kind());
    let c = c_reference::encode(&same, None).map_err(|_| ErrorKind::BadInput);
    assert!(ours.is_ok() && ours == c, "U+FFFFFFFF x 100000 differs");
    // After U+0080 is handled, the jump to U+FFFFFFFF times 50001 overflows.
    let mixed: Vec<u32> = (0..100_000)
        .map(|k| if k % 2 == 0 { 0x80 } else { u32::MAX })
        .collect();
    assert_eq!(
        punycode::encode(&mixed, None).map_err(|e| e.kind()),
        Err(ErrorKind::Overflow)
    );
    assert_eq!(
        c_reference::encode(&mixed, None),
        Err(c_reference::CError::Status(ErrorKind::Overflow))
    );
}

#[test]
fn long_garbage_punycode_is_rejected_everywhere() {
    let mut inputs: Vec<Vec<u8>> = vec![
        vec![0xFF; 100_000],
        vec![b'9'; 100_000],
        vec![b'-'; 100_000],
        (0..100_000u32).map(|k| (k % 256) as u8).collect(),
        (0..100_000u32).map(|k| (k % 32) as u8).collect(),
    ];
    // Long valid-looking literal with a bad tail.
    let mut tail = vec![b'a'; 100_000];
    tail.extend_from_slice(b"-\x80");
    inputs.push(tail);
    for input in &inputs {
        let ours = punycode::decode(input).map_err(|e| e.kind());
        let c = c_reference::decode(input).map_err(|e| match e {
            c_reference::CError::Status(kind) => kind,
            other => panic!("{other:?}"),
        });
        assert_eq!(
            ours.as_ref().map(|d| &d.code_points),
            c.as_ref().map(|d| &d.code_points)
        );
    }
}

#[test]
fn every_engine_survives_hostile_input() {
    let byte_inputs: Vec<Vec<u8>> = vec![
        vec![],
        b"-".to_vec(),
        vec![0x80],
        vec![0xFF, b'-', b'a'],
        b"\x00\x01\x1f\x7f".to_vec(),
        b"a-\x00".to_vec(),
        vec![b'z'; 10_000],
        vec![b'a'; 10_000],
    ];
    let code_point_inputs: Vec<Vec<u32>> = vec![
        vec![],
        vec![u32::MAX],
        vec![u32::MAX, 0, u32::MAX],
        vec![0xD800, 0x11_0000],
        vec![0; 10_000],
        long_input(10_000, 100),
    ];
    let mut requests: Vec<Request> = byte_inputs.into_iter().map(Request::Decode).collect();
    for input in code_point_inputs {
        requests.push(Request::Encode {
            flags: Some(vec![true; input.len()]),
            code_points: input.clone(),
        });
        requests.push(Request::Encode {
            code_points: input,
            flags: None,
        });
    }
    let mut answered = 0;
    for engine in engines::builtin() {
        let engine: &dyn Engine = engine.as_ref();
        for request in &requests {
            let answer = match request {
                Request::Decode(bytes) => engine.decode(bytes).map(|d| d.code_points.len()),
                Request::Encode { code_points, flags } => engine
                    .encode(code_points, flags.as_deref())
                    .map(|e| e.len()),
            };
            // An answer, or a refusal that says what it is: never a crash,
            // a hang or a broken answer.
            match &answer {
                Ok(_) => answered += 1,
                Err(
                    EngineError::Rejected(_)
                    | EngineError::Failed(_)
                    | EngineError::Unsupported(_)
                    | EngineError::Limit(_),
                ) => {}
                Err(e) => panic!("{}: {request}: {e}", engine.name()),
            }
            // And the answer is the right one, as the harness judges it
            // against the C reference, within what the engine declares.
            let reference = compare::reference(request).expect("the C reference answers");
            let verdict = compare::judge(engine, request, &reference);
            assert!(
                !matches!(verdict, Verdict::Nonconformance(_)),
                "{}: {request}: {verdict:?}",
                engine.name()
            );
        }
    }
    // The inputs are not all refused: the assertions above saw answers.
    assert!(answered > requests.len(), "{answered} answers");
}

#[test]
fn flags_of_the_wrong_length_are_an_error() {
    let err = punycode::encode(&[0x61, 0xE9], Some(&[true])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BadInput);
    assert!(c_reference::encode(&[0x61], Some(&[true, false])).is_err());
}

#[test]
fn string_api_rejects_non_scalars() {
    assert_eq!(punycode::encode_str("bücher").unwrap(), "bcher-kva");
    assert_eq!(punycode::decode_to_string("bcher-kva").unwrap(), "bücher");
    // "ww902716a" decodes to U+FFFFFFFF (vector edge-decode-beyond-unicode).
    let err = punycode::decode_to_string("ww902716a").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::BadInput);
    assert!(punycode::decode_to_string("a-\u{e9}").is_err());
}
