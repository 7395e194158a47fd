//! The expressions table: (template string, parameters) → value, or the error's text.

use super::ctx;
use kairos_import::arm::evaluate;
use serde_json::{json, Map, Value};

fn check(text: &str, parameters: Value, expected: Result<Value, &str>) {
    let parameters: Map<String, Value> = serde_json::from_value(parameters).unwrap();
    let variables: Map<String, Value> = serde_json::from_value(json!({
        "base": "https://example.com",
        "uri": "[concat(variables('base'), '/run')]",
        "loop": "[variables('loop')]",
        "obj": {"name": "n", "list": [1, 2, 3]},
    }))
    .unwrap();
    let got = evaluate(text, &parameters, &variables, &ctx()).map_err(|e| e.to_string());
    assert_eq!(got, expected.map_err(String::from), "{text}");
}

#[test]
fn expressions() {
    let none = json!({});
    let cases: Vec<(&str, Value, Result<Value, &str>)> = vec![
        // Literals, escapes and strings that are not expressions.
        ("plain", none.clone(), Ok(json!("plain"))),
        ("[[not an expression]", none.clone(), Ok(json!("[not an expression]"))),
        ("[half", none.clone(), Ok(json!("[half"))),
        ("['it''s']", none.clone(), Ok(json!("it's"))),
        ("[ concat( 'a' , 'b' ) ]", none.clone(), Ok(json!("ab"))),
        // Parameters and variables (case-insensitive names), variables using variables.
        ("[parameters('Name')]", json!({"name": "x"}), Ok(json!("x"))),
        ("[variables('uri')]", none.clone(), Ok(json!("https://example.com/run"))),
        ("[variables('loop')]", none.clone(), Err("the variable 'loop' refers to itself")),
        ("[variables('nope')]", none.clone(), Err("the template has no variable 'nope'")),
        ("[parameters('nope')]", none.clone(), Err("the template has no parameter 'nope'")),
        // Property access.
        ("[variables('obj').name]", none.clone(), Ok(json!("n"))),
        ("[variables('obj')['list'][2]]", none.clone(), Ok(json!(3))),
        ("[variables('obj').list[5]]", none.clone(), Err("index 5 is outside the array (length 3)")),
        ("[variables('obj').missing]", none.clone(), Err("the object has no property 'missing'")),
        // Strings.
        ("[concat('a', 1, 'b')]", none.clone(), Ok(json!("a1b"))),
        ("[concat(createArray(1, 2), createArray(3))]", none.clone(), Ok(json!([1, 2, 3]))),
        ("[format('{0}-{1}-{{x}}', 'a', 2)]", none.clone(), Ok(json!("a-2-{x}"))),
        ("[format('{2}', 'a')]", none.clone(), Err("'format': '{2}' names no argument")),
        ("[toLower('AbC')]", none.clone(), Ok(json!("abc"))),
        ("[toUpper('AbC')]", none.clone(), Ok(json!("ABC"))),
        ("[uniqueString('test')]", none.clone(), Ok(json!("rbgf3xv4ufgzg"))),
        ("[uniqueString(resourceGroup().id)]", none.clone(), Ok(json!("bmg7c6xu4tw46"))),
        ("[string(true())]", none.clone(), Ok(json!("True"))),
        ("[string(createObject('a', 1))]", none.clone(), Ok(json!("{\"a\":1}"))),
        ("[int('42')]", none.clone(), Ok(json!(42))),
        ("[bool('true')]", none.clone(), Ok(json!(true))),
        ("[replace('a-b-c', '-', '/')]", none.clone(), Ok(json!("a/b/c"))),
        ("[substring('scheduler', 0, 5)]", none.clone(), Ok(json!("sched"))),
        ("[substring('abc', 2, 5)]", none.clone(), Err("'substring': 2+5 is past the end of 'abc'")),
        ("[trim('  x ')]", none.clone(), Ok(json!("x"))),
        ("[split('a,b;c', createArray(',', ';'))]", none.clone(), Ok(json!(["a", "b", "c"]))),
        ("[first('abc')]", none.clone(), Ok(json!("a"))),
        ("[last(createArray(1, 2))]", none.clone(), Ok(json!(2))),
        ("[length('abc')]", none.clone(), Ok(json!(3))),
        ("[empty('')]", none.clone(), Ok(json!(true))),
        ("[contains('scheduler', 'dule')]", none.clone(), Ok(json!(true))),
        ("[contains(variables('obj'), 'NAME')]", none.clone(), Ok(json!(true))),
        // Logic and numbers.
        ("[if(equals(1, 1), 'yes', reference('x'))]", none.clone(), Ok(json!("yes"))),
        ("[if(equals(1, 2), 'yes', 'no')]", none.clone(), Ok(json!("no"))),
        ("[not(and(true(), or(false(), true())))]", none.clone(), Ok(json!(false))),
        ("[add(1, mul(2, 3))]", none.clone(), Ok(json!(7))),
        ("[sub(10, div(9, 2))]", none.clone(), Ok(json!(6))),
        ("[mod(7, 3)]", none.clone(), Ok(json!(1))),
        ("[div(1, 0)]", none.clone(), Err("'div': division by zero or overflow")),
        ("[add(1, -3)]", none.clone(), Ok(json!(-2))),
        // Arrays and objects.
        ("[json('{\"a\": [1]}').a[0]]", none.clone(), Ok(json!(1))),
        ("[union(createObject('a', 1), createObject('b', 2, 'a', 3))]", none.clone(), Ok(json!({"a": 3, "b": 2}))),
        ("[union(createArray(1, 2), createArray(2, 3))]", none.clone(), Ok(json!([1, 2, 3]))),
        ("[coalesce(null(), parameters('p'), 'z')]", json!({"p": "y"}), Ok(json!("y"))),
        // The deployment.
        (
            "[resourceId('Microsoft.Scheduler/jobCollections/jobs', 'c', 'j')]",
            none.clone(),
            Ok(json!("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/my-rg/providers/Microsoft.Scheduler/jobCollections/c/jobs/j")),
        ),
        (
            "[resourceId('other-rg', 'Microsoft.Scheduler/jobCollections', 'c')]",
            none.clone(),
            Ok(json!("/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/other-rg/providers/Microsoft.Scheduler/jobCollections/c")),
        ),
        (
            "[resourceId('Microsoft.Scheduler/jobCollections/jobs', 'c')]",
            none.clone(),
            Err("'resourceId': the type 'Microsoft.Scheduler/jobCollections/jobs' needs 2 name(s), got 1"),
        ),
        (
            "[subscriptionResourceId('Microsoft.Resources/deployments', 'd')]",
            none.clone(),
            Ok(json!("/subscriptions/00000000-0000-0000-0000-000000000000/providers/Microsoft.Resources/deployments/d")),
        ),
        ("[resourceGroup().name]", none.clone(), Ok(json!("my-rg"))),
        ("[resourceGroup().Location]", none.clone(), Ok(json!("westeurope"))),
        ("[subscription().subscriptionId]", none.clone(), Ok(json!("00000000-0000-0000-0000-000000000000"))),
        ("[deployment().name]", none.clone(), Ok(json!("kairos-import"))),
        // Dates: utcNow only in parameter defaults, as in Azure.
        ("[utcNow()]", none.clone(), Err("'utcNow': can only be used in a parameter's defaultValue, as in Azure")),
        ("[dateTimeAdd('2026-01-31T10:00:00Z', 'P1M')]", none.clone(), Ok(json!("2026-02-28T10:00:00Z"))),
        ("[dateTimeAdd('2026-01-01T00:00:00Z', '-PT90M', 'u')]", none.clone(), Ok(json!("2025-12-31 22:30:00Z"))),
        ("[dateTimeAdd('2026-01-01', 'P1X')]", none.clone(), Err("'dateTimeAdd': 'P1X' is not an ISO 8601 duration")),
        // Refused and unknown.
        (
            "[reference('x').y]",
            none.clone(),
            Err("the template function 'reference' is not supported (Kairos cannot read other Azure resources)"),
        ),
        ("[copyIndex()]", none.clone(), Err("'copyIndex' is used outside a copy loop")),
        ("[frobnicate()]", none.clone(), Err("'frobnicate' is not a template function Kairos knows")),
        ("[concat('a']", none.clone(), Err("the expression 'concat('a'' cannot be read: expected ',' or ')' after an argument (at character 11)")),
        ("[parameters]", none.clone(), Err("the expression 'parameters' cannot be read: 'parameters' must be called, as 'parameters()' (at character 11)")),
        ("['open]", none.clone(), Err("the expression ''open' cannot be read: a 'string' is not closed (at character 6)")),
    ];
    for (text, parameters, expected) in cases {
        check(text, parameters, expected);
    }
}

#[test]
fn utc_now_in_a_parameter_default_reads_the_deployment_time() {
    let template = json!({
        "parameters": {
            "start": {"type": "string", "defaultValue": "[utcNow('yyyy-MM-ddTHH:mm:ssZ')]"},
            "stamp": {"type": "string", "defaultValue": "[utcNow()]"},
        },
        "resources": [{
            "type": "Microsoft.Scheduler/jobCollections/jobs",
            "apiVersion": "2016-03-01",
            "name": "[concat('c/', parameters('stamp'))]",
            "properties": {
                "startTime": "[parameters('start')]",
                "action": {"type": "Http", "request": {"uri": "https://example.com/", "method": "GET"}},
            },
        }],
    });
    let plan = kairos_import::arm::import_template(&template, None, &ctx());
    assert_eq!(plan.problems, []);
    let (_, job) = plan.jobs().next().unwrap();
    assert_eq!(job.name, "20261125T065000Z");
    assert_eq!(job.body["properties"]["startTime"], "2026-11-25T06:50:00Z");
}
